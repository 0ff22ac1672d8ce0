import { describe, expect, it } from 'vitest';
import {
  PROTOCOL_VERSION, isEngineToSw, isPageReply, isPageToSw, isSwToEngine, isSwToPage, message,
} from '../../src/core/protocol';
import type { EngineToSw, SwToEngine, SwToPage } from '../../src/core/protocol';

const allTypes = [
  'engine.query', 'completion.start', 'client.claim', 'client.hello', 'client.goodbye', 'engine.info',
  'completion.delta', 'completion.choice-end', 'completion.done', 'completion.error', 'completion.cancel',
];

const guards: Array<[string, (data: unknown) => boolean, string[]]> = [
  ['isSwToPage', isSwToPage, ['engine.query', 'completion.start']],
  ['isPageToSw', isPageToSw, ['client.claim', 'client.hello', 'client.goodbye']],
  ['isPageReply', isPageReply, ['engine.info']],
  ['isEngineToSw', isEngineToSw, ['completion.delta', 'completion.choice-end', 'completion.done', 'completion.error']],
  ['isSwToEngine', isSwToEngine, ['completion.cancel']],
];

describe.each(guards)('%s', (_name, guard, own) => {
  it('accepts its own message types', () => {
    for (const type of own) expect(guard({ type }), type).toBe(true);
  });

  it('rejects the other directions’ types and unknown types', () => {
    for (const type of [...allTypes.filter((t) => !own.includes(t)), 'nope', '', 'COMPLETION.DELTA']) {
      expect(guard({ type }), type).toBe(false);
    }
  });

  it('rejects non-objects, a missing type and a non-string type', () => {
    for (const value of [null, undefined, 0, 'engine.query', own[0], true, [], {}, { kind: own[0] }, { type: 1 }, { type: null }]) {
      expect(guard(value), JSON.stringify(value)).toBe(false);
    }
  });
});

describe('message', () => {
  it('builds { type, ...payload }', () => {
    expect(message<EngineToSw, 'completion.delta'>('completion.delta', { index: 1, text: 'Hi', logprobs: null }))
      .toStrictEqual({ type: 'completion.delta', index: 1, text: 'Hi', logprobs: null });
    expect(message<SwToEngine, 'completion.cancel'>('completion.cancel', { reason: 'abort' })).toStrictEqual({ type: 'completion.cancel', reason: 'abort' });
  });

  it('builds messages its own guard accepts', () => {
    const query = message<SwToPage, 'engine.query'>('engine.query', { protocol: PROTOCOL_VERSION, catalogue: false });
    expect(query).toStrictEqual({ type: 'engine.query', protocol: PROTOCOL_VERSION, catalogue: false });
    expect(isSwToPage(query)).toBe(true);
    expect(isEngineToSw(query)).toBe(false);
    const done = message<EngineToSw, 'completion.done'>('completion.done', {
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    });
    expect(done).toStrictEqual({ type: 'completion.done', usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } });
    expect(isEngineToSw(structuredClone(done))).toBe(true);
    const end = message<EngineToSw, 'completion.choice-end'>('completion.choice-end', { index: 0, finish_reason: 'stop', matched_stop: 7 });
    expect(end).toStrictEqual({ type: 'completion.choice-end', index: 0, finish_reason: 'stop', matched_stop: 7 });
    expect(isEngineToSw(structuredClone(end))).toBe(true);
  });

  it('does not alias the payload', () => {
    const payload = { index: 0, text: 'a', logprobs: null };
    const built = message<EngineToSw, 'completion.delta'>('completion.delta', payload);
    payload.text = 'b';
    expect(built.text).toBe('a');
  });
});
