import { describe, expect, it } from 'vitest';
import type { CatalogueEntry } from '../../../demo/catalogue';
import { CATALOGUE, formatBytes } from '../../../demo/catalogue';
import {
  pendingConversation,
  toChatBody,
  toEmbeddingsBody,
  toMessagesBody,
  toResponsesBody,
} from '../../../demo/chat-body';
import { chooseDefaultModel } from '../../../demo/choose-default-model';
import { describeLoadFailure, describeRequestFailure } from '../../../demo/describe-failure';
import { DEFAULT_PARAMS, parseStop, toRequestBody } from '../../../demo/request-body';
import { fetchCode, sdkCode } from '../../../demo/request-code';

const builtin = CATALOGUE[0] as CatalogueEntry;
const real = (id: string, requires: 'cpu' | 'webgpu'): CatalogueEntry => ({
  id,
  source: id,
  label: id,
  backend: requires === 'webgpu' ? 'webllm' : 'llamacpp',
  downloadBytes: 300e6,
  requires,
  isCached: () => Promise.resolve(false),
});

describe('chooseDefaultModel', () => {
  it('the shipped catalogue: its WebLLM model with WebGPU and network, else inpage-test with the reason', () => {
    expect(chooseDefaultModel(CATALOGUE, { webgpu: true, online: true }, new Set())).toEqual({
      entry: expect.objectContaining({ backend: 'webllm', requires: 'webgpu' }),
      reason: null,
    });
    const noGpu = chooseDefaultModel(CATALOGUE, { webgpu: false, online: true }, new Set());
    expect(noGpu?.entry.id).toBe('inpage-test');
    expect(noGpu?.reason).toMatch(/No WebGPU/);
    const offline = chooseDefaultModel(CATALOGUE, { webgpu: true, online: false }, new Set());
    expect(offline?.reason).toMatch(/offline/);
  });

  it('with no downloadable model at all it says so', () => {
    expect(chooseDefaultModel([builtin], { webgpu: true, online: true }, new Set())?.reason).toMatch(
      /No downloadable model/,
    );
  });

  it('picks a real WebGPU model when WebGPU and the network are there', () => {
    const choice = chooseDefaultModel([builtin, real('small', 'webgpu')], { webgpu: true, online: true }, new Set());
    expect(choice).toEqual({ entry: expect.objectContaining({ id: 'small' }), reason: null });
  });

  it('no WebGPU: inpage-test with the reason, unless a CPU model exists', () => {
    expect(
      chooseDefaultModel([builtin, real('small', 'webgpu')], { webgpu: false, online: true }, new Set())?.reason,
    ).toMatch(/No WebGPU/);
    expect(
      chooseDefaultModel(
        [builtin, real('small', 'webgpu'), real('cpu', 'cpu')],
        { webgpu: false, online: true },
        new Set(),
      )?.entry.id,
    ).toBe('cpu');
  });

  it('offline: only a cached model, else inpage-test with the reason', () => {
    const catalogue = [builtin, real('small', 'webgpu')];
    expect(chooseDefaultModel(catalogue, { webgpu: true, online: false }, new Set())?.reason).toMatch(/offline/);
    expect(chooseDefaultModel(catalogue, { webgpu: true, online: false }, new Set(['small']))?.entry.id).toBe('small');
  });
});

describe('describeLoadFailure / describeRequestFailure', () => {
  it('quota exceeded, by name or message', () => {
    expect(describeLoadFailure(new DOMException('no room', 'QuotaExceededError'), 'm', true).kind).toBe('quota');
    expect(describeLoadFailure(new Error('Storage quota has been exceeded'), 'm', true)).toMatchObject({
      kind: 'quota',
      offerTestModel: true,
    });
  });

  it('offline download failure offers inpage-test; online it is a download failure', () => {
    expect(describeLoadFailure(new Error('Failed to fetch'), 'm', false)).toMatchObject({
      kind: 'offline',
      offerTestModel: true,
    });
    expect(describeLoadFailure(new Error('HTTP 404'), 'm', true)).toMatchObject({
      kind: 'download-failed',
      title: "Model 'm' failed to load",
    });
  });

  it('a request to a page without an engine; any other error', () => {
    const noEngine = Object.assign(new Error('No page with an in-page engine'), { code: 'engine_not_loaded' });
    expect(describeRequestFailure(noEngine).kind).toBe('no-engine');
    expect(describeRequestFailure(new Error('boom'))).toMatchObject({ kind: 'error', detail: 'boom' });
  });
});

describe('the request body and its code', () => {
  it('sends stop and seed only when set; a stream asks for usage', () => {
    expect(toRequestBody('inpage-test', DEFAULT_PARAMS)).toEqual({
      model: 'inpage-test',
      prompt: 'abc',
      max_tokens: 32,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
    });
    const body = toRequestBody('m', { ...DEFAULT_PARAMS, stream: false, stop: 'fg\n\\n', seed: '7' });
    expect(body).toMatchObject({ stop: ['fg', '\n'], seed: 7, stream: false });
    expect(body).not.toHaveProperty('stream_options');
    expect(toRequestBody('m', { ...DEFAULT_PARAMS, stop: 'x' }).stop).toBe('x');
  });

  it('parseStop decodes \\n, \\t and \\\\ and drops empty lines', () => {
    expect(parseStop('a\n\n\\n\\t\\\\')).toEqual(['a', '\n\t\\']);
  });

  it('the SDK and fetch code carry the exact body', () => {
    const body = toRequestBody('inpage-test', { ...DEFAULT_PARAMS, prompt: 'say "hi"' });
    for (const code of [sdkCode(body), fetchCode(body)]) expect(code).toContain('"prompt": "say \\"hi\\""');
    expect(sdkCode(body)).toMatch(/for await \(const chunk of stream\)/);
    expect(sdkCode({ ...body, stream: false })).toMatch(/completion\.choices\[0\]\.text/);
    expect(fetchCode(body)).toMatch(/TextDecoderStream/);
  });

  it("the code carries the runtime's API key when it has one", () => {
    const body = toRequestBody('inpage-test', DEFAULT_PARAMS);
    expect(sdkCode(body)).toContain(`apiKey: "unused"`);
    expect(sdkCode(body, 'sk-1')).toContain(`apiKey: "sk-1"`);
    expect(fetchCode(body)).not.toContain('authorization');
    expect(fetchCode(body, 'sk-1')).toContain(`authorization: "Bearer sk-1"`);
  });

  it('formatBytes', () => {
    expect([formatBytes(0), formatBytes(2048), formatBytes(5.5 * 1024 ** 2), formatBytes(3 * 1024 ** 3)]).toEqual([
      '0 B',
      '2 KB',
      '5.5 MB',
      '3.00 GB',
    ]);
  });
});

describe('the Chat tab: its bodies on each endpoint, and their code', () => {
  const abc = { system: '', turns: [{ role: 'user' as const, content: 'abc' }] };
  const twoTurns = {
    system: 'Be brief.',
    turns: [
      { role: 'user' as const, content: 'abc' },
      { role: 'assistant' as const, content: 'defgh', reasoning: 'hmm' },
    ],
  };

  it('chat: the system prompt first when set, past reasoning not sent back, the shared samplers', () => {
    expect(toChatBody('m', { ...DEFAULT_PARAMS, maxTokens: 5, seed: '3' }, abc)).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'abc' }],
      max_tokens: 5,
      temperature: 0,
      stream: true,
      seed: 3,
      stream_options: { include_usage: true },
    });
    expect(toChatBody('m', DEFAULT_PARAMS, twoTurns).messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'abc' },
      { role: 'assistant', content: 'defgh' },
    ]);
  });

  it('responses: a lone user turn is a string input, else the turns; the system prompt is instructions', () => {
    expect(toResponsesBody('m', { ...DEFAULT_PARAMS, stop: 'x', stream: false }, abc)).toEqual({
      model: 'm',
      input: 'abc',
      max_output_tokens: 32,
      temperature: 0,
      stream: false,
    });
    expect(toResponsesBody('m', DEFAULT_PARAMS, twoTurns)).toMatchObject({
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: 'abc' },
        { role: 'assistant', content: 'defgh' },
      ],
    });
  });

  it('messages: the system prompt in system, max_tokens, stop as stop_sequences, no seed or stream_options', () => {
    expect(toMessagesBody('m', { ...DEFAULT_PARAMS, maxTokens: 5, seed: '3', stop: 'x' }, twoTurns)).toEqual({
      model: 'm',
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'abc' },
        { role: 'assistant', content: 'defgh' },
      ],
      max_tokens: 5,
      temperature: 0,
      stream: true,
      stop_sequences: ['x'],
    });
    const messages = toMessagesBody('m', DEFAULT_PARAMS, abc);
    expect(sdkCode(messages, 'k', 'messages')).toContain("import Anthropic from '@anthropic-ai/sdk';");
    expect(sdkCode(messages, 'k', 'messages')).toContain('baseURL: location.origin, apiKey: "k"');
    expect(sdkCode(messages, null, 'messages')).toContain("event.delta.type === 'text_delta'");
    expect(sdkCode({ ...messages, stream: false }, null, 'messages')).toContain("block.type === 'text'");
    expect(fetchCode(messages, null, 'messages')).toContain("'anthropic-version': '2023-06-01'");
    expect(fetchCode(messages, null, 'messages')).toContain("fetch('/v1/messages'");
  });

  it('embeddings: the last user turn, else the prompt', () => {
    expect(toEmbeddingsBody('m', twoTurns, 'p')).toEqual({ model: 'm', input: 'abc' });
    expect(toEmbeddingsBody('m', { system: '', turns: [] }, 'p')).toEqual({ model: 'm', input: 'p' });
  });

  it('the pending request: the turns plus the draft, or up to the last user turn', () => {
    expect(pendingConversation(twoTurns, 'x').turns.map((turn) => turn.content)).toEqual(['abc', 'defgh', 'x']);
    expect(pendingConversation(twoTurns, ' ').turns.map((turn) => turn.content)).toEqual(['abc']);
  });

  it('the code for each endpoint calls its SDK method or path and reads its answer', () => {
    const chat = toChatBody('m', DEFAULT_PARAMS, abc);
    expect(sdkCode(chat, null, 'chat')).toContain('openai.chat.completions.create(');
    expect(sdkCode(chat, null, 'chat')).toContain("chunk.choices[0]?.delta.content ?? ''");
    expect(sdkCode({ ...chat, stream: false }, null, 'chat')).toContain('completion.choices[0].message.content');
    expect(fetchCode(chat, null, 'chat')).toContain("fetch('/v1/chat/completions'");
    const responses = toResponsesBody('m', DEFAULT_PARAMS, abc);
    expect(sdkCode(responses, null, 'responses')).toContain("event.type === 'response.output_text.delta'");
    expect(sdkCode({ ...responses, stream: false }, null, 'responses')).toContain('console.log(response.output_text)');
    expect(fetchCode(responses, 'k', 'responses')).toContain('authorization: "Bearer k"');
    const embeddings = toEmbeddingsBody('m', abc, '');
    expect(sdkCode(embeddings, null, 'embeddings')).toContain(
      'const { data, usage } = await openai.embeddings.create(',
    );
    expect(fetchCode(embeddings, null, 'embeddings')).toContain("fetch('/v1/embeddings'");
  });
});
