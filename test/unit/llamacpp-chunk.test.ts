import { describe, expect, it } from 'vitest';
import { chunkEvents } from '../../worker/engine/backends/llamacpp/chunk';

/** A llama-server streamed /v1/completions chunk carrying text and its tokens' logprobs. */
const textChunk = {
  choices: [
    {
      index: 0,
      text: ' hé',
      finish_reason: null,
      logprobs: {
        content: [
          {
            id: 220,
            token: ' h',
            bytes: [32, 104],
            logprob: -0.5,
            top_logprobs: [
              { id: 220, token: ' h', bytes: [32, 104], logprob: -0.5 },
              { id: 221, token: ' H', bytes: [32, 72], logprob: -1.5 },
            ],
          },
          { id: 9, token: 'Ã', bytes: [0xc3], logprob: -0.25, top_logprobs: [] },
          {
            id: 10,
            token: '©',
            bytes: [0xa9],
            logprob: -0.125,
            top_logprobs: [{ id: 10, token: '©', bytes: [0xa9], logprob: -0.125 }],
          },
        ],
      },
    },
  ],
};

describe('chunkEvents', () => {
  it('turns a text chunk with logprobs.content into a text event with every token', () => {
    expect(chunkEvents(textChunk, true)).toStrictEqual([
      {
        type: 'text',
        text: ' hé',
        tokens: [
          {
            id: 220,
            text: ' h',
            bytes: [32, 104],
            logprob: -0.5,
            top: [
              { id: 220, text: ' h', bytes: [32, 104], logprob: -0.5 },
              { id: 221, text: ' H', bytes: [32, 72], logprob: -1.5 },
            ],
          },
          { id: 9, text: 'Ã', bytes: [0xc3], logprob: -0.25, top: [] },
          {
            id: 10,
            text: '©',
            bytes: [0xa9],
            logprob: -0.125,
            top: [{ id: 10, text: '©', bytes: [0xa9], logprob: -0.125 }],
          },
        ],
      },
    ]);
  });

  it('leaves tokens out when they were not asked for', () => {
    expect(chunkEvents(textChunk, false)).toStrictEqual([{ type: 'text', text: ' hé', tokens: null }]);
    expect(chunkEvents({ choices: [{ text: 'x', finish_reason: null }] }, false)).toStrictEqual([
      { type: 'text', text: 'x', tokens: null },
    ]);
  });

  it('emits a text event for tokens without text (half a character) when tokens are wanted', () => {
    const chunk = {
      choices: [
        { text: '', logprobs: { content: [{ id: 9, token: 'Ã', bytes: [0xc3], logprob: -1, top_logprobs: [] }] } },
      ],
    };
    expect(chunkEvents(chunk, true)).toStrictEqual([
      { type: 'text', text: '', tokens: [{ id: 9, text: 'Ã', bytes: [0xc3], logprob: -1, top: [] }] },
    ]);
    expect(chunkEvents(chunk, false)).toStrictEqual([]);
  });

  it('fills missing candidate fields with safe values', () => {
    const chunk = { choices: [{ text: 'a', logprobs: { content: [{ bytes: [97, 'x'], top_logprobs: 'nope' }] } }] };
    expect(chunkEvents(chunk, true)).toStrictEqual([
      { type: 'text', text: 'a', tokens: [{ id: -1, text: '', bytes: [97], logprob: -Infinity, top: [] }] },
    ]);
  });

  it('turns prompt_progress into a prompt event', () => {
    expect(
      chunkEvents({ choices: [], prompt_progress: { total: 12, cache: 5, processed: 12, time_ms: 3 } }, true),
    ).toStrictEqual([{ type: 'prompt', promptTokens: 12, cachedTokens: 5 }]);
  });

  it('turns the final chunk with usage into an end event', () => {
    const final = {
      choices: [{ index: 0, text: '', finish_reason: 'length', logprobs: null }],
      usage: { prompt_tokens: 7, completion_tokens: 16, total_tokens: 23, prompt_tokens_details: { cached_tokens: 4 } },
    };
    const expected = [{ type: 'end', finishReason: 'length', promptTokens: 7, completionTokens: 16, cachedTokens: 4 }];
    expect(chunkEvents(final, true)).toStrictEqual(expected);
    expect(chunkEvents(final, false)).toStrictEqual(expected);
  });

  it('puts the last text before the end and defaults cached tokens to 0', () => {
    const final = {
      choices: [{ text: '.', finish_reason: 'stop' }],
      usage: { prompt_tokens: 2, completion_tokens: 3 },
    };
    expect(chunkEvents(final, false)).toStrictEqual([
      { type: 'text', text: '.', tokens: null },
      { type: 'end', finishReason: 'stop', promptTokens: 2, completionTokens: 3, cachedTokens: 0 },
    ]);
  });

  it('gives no end without a finish reason it knows, or without usage', () => {
    expect(
      chunkEvents(
        { choices: [{ text: '', finish_reason: null }], usage: { prompt_tokens: 1, completion_tokens: 1 } },
        true,
      ),
    ).toStrictEqual([]);
    expect(
      chunkEvents(
        { choices: [{ text: '', finish_reason: 'tool_calls' }], usage: { prompt_tokens: 1, completion_tokens: 1 } },
        true,
      ),
    ).toStrictEqual([]);
    expect(chunkEvents({ choices: [{ text: '', finish_reason: 'stop' }] }, true)).toStrictEqual([]);
  });

  it.each<unknown>([
    null,
    undefined,
    5,
    'data',
    true,
    [],
    {},
    { choices: 'x' },
    { choices: [] },
    { usage: { prompt_tokens: 1 } },
    { prompt_progress: 3 },
  ])('junk %j -> no events', (chunk) => {
    expect(chunkEvents(chunk, true)).toStrictEqual([]);
  });

  // BUG (worker/engine/backends/llamacpp/chunk.ts chunkEvents): Reflect.get on a non-object choice
  // (or candidate.bytes on a null logprobs item) throws a TypeError instead of ignoring the junk.
  it.each<unknown>([
    { choices: [null] },
    { choices: [5] },
    { choices: [{ text: 'a', logprobs: { content: [null] } }] },
  ])('junk inside choices %j -> no throw', (chunk) => {
    expect(() => chunkEvents(chunk, true)).not.toThrow();
  });
});
