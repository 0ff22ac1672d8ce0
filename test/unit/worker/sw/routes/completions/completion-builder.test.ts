import { createParser } from 'eventsource-parser';
import type { EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import {
  completionMeta,
  completionObject,
  usageChunk,
} from '../../../../../../worker/sw/routes/completions/completion-builder';
import { SSE_DONE, SSE_HEADERS, sseFrame } from '../../../../../../worker/sw/sse';
import type { CompletionChoice, FinishReason } from '../../../../../../src/core/openai/types';

const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('completionMeta', () => {
  it('makes a cmpl- id with 24 hex digits and created in seconds', () => {
    const meta = completionMeta('m', 1_700_000_000_999);
    expect(meta.id).toMatch(/^cmpl-[0-9a-f]{24}$/);
    expect(meta.created).toBe(1_700_000_000);
    expect(meta.model).toBe('m');
  });

  it('defaults created to now', () => {
    const before = Math.floor(Date.now() / 1000);
    const { created } = completionMeta('m');
    expect(created).toBeGreaterThanOrEqual(before);
    expect(created).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('gives each call a new id', () => {
    const ids = new Set(Array.from({ length: 50 }, () => completionMeta('m', 0).id));
    expect(ids.size).toBe(50);
  });
});

describe('completionObject / usageChunk', () => {
  const meta = { id: 'cmpl-abc', created: 123, model: 'inpage-test' };
  const choice = (index: number, text: string, finish: FinishReason | null = null): CompletionChoice => ({
    text,
    index,
    logprobs: null,
    finish_reason: finish,
  });

  it('has the exact shape without usage', () => {
    const object = completionObject(meta, [choice(0, 'Hi')]);
    expect(object).toStrictEqual({
      id: 'cmpl-abc',
      object: 'text_completion',
      created: 123,
      model: 'inpage-test',
      choices: [{ text: 'Hi', index: 0, logprobs: null, finish_reason: null }],
    });
    expect('usage' in object).toBe(false);
    expect(JSON.parse(JSON.stringify(object))).not.toHaveProperty('usage');
  });

  it('has the exact shape with usage and several choices', () => {
    const logprobs = { tokens: ['a'], token_logprobs: [-0.5], top_logprobs: [{ a: -0.5 }], text_offset: [0] };
    const choices: CompletionChoice[] = [
      { ...choice(0, 'a', 'stop'), logprobs, matched_stop: '\n' },
      choice(1, '', 'length'),
    ];
    expect(completionObject(meta, choices, usage)).toStrictEqual({
      id: 'cmpl-abc',
      object: 'text_completion',
      created: 123,
      model: 'inpage-test',
      choices: [
        { text: 'a', index: 0, logprobs, finish_reason: 'stop', matched_stop: '\n' },
        { text: '', index: 1, logprobs: null, finish_reason: 'length' },
      ],
      usage,
    });
  });

  it('keeps the choices in the order given (a stream chunk may carry any index)', () => {
    expect(completionObject(meta, [choice(3, 'x'), choice(1, 'y')]).choices.map((c) => c.index)).toEqual([3, 1]);
  });

  it('usageChunk has no choices, only usage', () => {
    expect(usageChunk(meta, usage)).toStrictEqual({
      id: 'cmpl-abc',
      object: 'text_completion',
      created: 123,
      model: 'inpage-test',
      choices: [],
      usage,
    });
  });
});

describe('SSE framing', () => {
  it('frames a value as exactly data: <json>\\n\\n', () => {
    const value = { text: 'a\nb "quoted" ü' };
    expect(decode(sseFrame(value))).toBe(`data: ${JSON.stringify(value)}\n\n`);
    expect(sseFrame(value)).toBeInstanceOf(Uint8Array);
  });

  it('keeps newlines inside one data line (JSON escapes them)', () => {
    const text = decode(sseFrame({ text: 'x\n\ny' }));
    expect(text.slice(0, -2)).not.toContain('\n');
  });

  it('ends with data: [DONE]', () => {
    expect(decode(SSE_DONE)).toBe('data: [DONE]\n\n');
  });

  it('uses event-stream headers', () => {
    expect(SSE_HEADERS['content-type']).toMatch(/^text\/event-stream/);
    expect(SSE_HEADERS['cache-control']).toBe('no-cache');
  });

  it('round-trips through eventsource-parser', () => {
    const meta = completionMeta('inpage-test', 0);
    const chunks = [
      completionObject(meta, [{ text: 'Hel', index: 0, logprobs: null, finish_reason: null }]),
      completionObject(meta, [{ text: 'lo\n\n', index: 0, logprobs: null, finish_reason: null }]),
      completionObject(meta, [{ text: '', index: 0, logprobs: null, finish_reason: 'stop' }]),
      usageChunk(meta, usage),
    ];
    const stream = chunks.map((chunk) => decode(sseFrame(chunk))).join('') + decode(SSE_DONE);
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    // Feed in awkward pieces to check the frames do not depend on chunk boundaries.
    for (let i = 0; i < stream.length; i += 7) parser.feed(stream.slice(i, i + 7));
    expect(events.map((event) => event.data)).toEqual([...chunks.map((chunk) => JSON.stringify(chunk)), '[DONE]']);
    expect(events.slice(0, -1).map((event): unknown => JSON.parse(event.data))).toStrictEqual(chunks);
    expect(events.every((event) => event.event === undefined)).toBe(true);
  });
});
