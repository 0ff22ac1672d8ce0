import { describe, expect, it } from 'vitest';
import {
  isEngineToSw,
  isEngineToSwEmbedding,
  isPageToSw,
  isSwToEngine,
  isSwToPage,
  message,
  typeGuard,
} from '../../../../../src/core/protocol/protocol';
import type { EngineToSw, Reply, SwToEngine, SwToPage } from '../../../../../src/core/protocol/protocol';

const allTypes = [
  'engine.query',
  'job',
  'client.claim',
  'client.hello',
  'client.goodbye',
  'sw.version.query',
  'engine.info',
  'sw.version',
  'generation.prompt',
  'generation.piece',
  'generation.choice-end',
  'generation.done',
  'generation.error',
  'generation.cancel',
  'generation.keepalive',
  'generation.alive',
  'embedding.result',
];

const guards: Array<[string, (data: unknown) => boolean, string[]]> = [
  ['isSwToPage', isSwToPage, ['engine.query', 'job']],
  ['isPageToSw', isPageToSw, ['client.claim', 'client.hello', 'client.goodbye', 'sw.version.query']],
  ['typeGuard(engine.info)', typeGuard<Reply, 'engine.info'>('engine.info'), ['engine.info']],
  ['typeGuard(sw.version)', typeGuard<Reply, 'sw.version'>('sw.version'), ['sw.version']],
  [
    'isEngineToSw',
    isEngineToSw,
    [
      'generation.prompt',
      'generation.piece',
      'generation.choice-end',
      'generation.done',
      'generation.error',
      'generation.alive',
    ],
  ],
  ['isEngineToSwEmbedding', isEngineToSwEmbedding, ['embedding.result', 'generation.error']],
  ['isSwToEngine', isSwToEngine, ['generation.cancel', 'generation.keepalive']],
];

describe.each(guards)('%s', (_name, guard, own) => {
  it('accepts its own message types', () => {
    for (const type of own) expect(guard({ type }), type).toBe(true);
  });

  it('rejects the other directions’ types and unknown types', () => {
    for (const type of [
      ...allTypes.filter((t) => !own.includes(t)),
      'nope',
      '',
      'GENERATION.PIECE',
      'completion.delta',
    ]) {
      expect(guard({ type }), type).toBe(false);
    }
  });

  it('rejects non-objects, a missing type and a non-string type', () => {
    for (const value of [
      null,
      undefined,
      0,
      'engine.query',
      own[0],
      true,
      [],
      {},
      { kind: own[0] },
      { type: 1 },
      { type: null },
    ]) {
      expect(guard(value), JSON.stringify(value)).toBe(false);
    }
  });
});

describe('message', () => {
  it('builds { type, ...payload }', () => {
    expect(
      message<EngineToSw, 'generation.piece'>('generation.piece', { index: 1, text: 'Hi', tokens: null }),
    ).toStrictEqual({ type: 'generation.piece', index: 1, text: 'Hi', tokens: null });
    expect(message<SwToEngine, 'generation.cancel'>('generation.cancel', { reason: 'abort' })).toStrictEqual({
      type: 'generation.cancel',
      reason: 'abort',
    });
  });

  it('builds messages its own guard accepts', () => {
    const query = message<SwToPage, 'engine.query'>('engine.query', { catalogue: false });
    expect(query).toStrictEqual({ type: 'engine.query', catalogue: false });
    expect(isSwToPage(query)).toBe(true);
    expect(isEngineToSw(query)).toBe(false);
    const done = message<EngineToSw, 'generation.done'>('generation.done', {
      counts: { prompt: 1, completion: 2, cached: 0 },
    });
    expect(done).toStrictEqual({ type: 'generation.done', counts: { prompt: 1, completion: 2, cached: 0 } });
    expect(isEngineToSw(structuredClone(done))).toBe(true);
    const end = message<EngineToSw, 'generation.choice-end'>('generation.choice-end', {
      index: 0,
      finish_reason: 'stop',
      matched_stop: 7,
    });
    expect(end).toStrictEqual({ type: 'generation.choice-end', index: 0, finish_reason: 'stop', matched_stop: 7 });
    expect(isEngineToSw(structuredClone(end))).toBe(true);
  });

  it('does not alias the payload', () => {
    const payload = { index: 0, text: 'a', tokens: null };
    const built = message<EngineToSw, 'generation.piece'>('generation.piece', payload);
    payload.text = 'b';
    expect(built.text).toBe('a');
  });
});
