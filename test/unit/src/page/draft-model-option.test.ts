import { describe, expect, it } from 'vitest';
import { paramOf } from './refused-param';
import type { ModelSpec } from '../../../../src/core/domain/model-spec';
import { withDraftModel } from '../../../../src/page/draft-model-option';

const BASE = 'https://example.test/app/';
const GGUF: ModelSpec = { id: 'big', backend: 'llamacpp', source: { kind: 'url', url: `${BASE}big.gguf` } };

describe('withDraftModel', () => {
  it("puts the draft model, named as a model is, on the model's spec", () => {
    expect(withDraftModel(GGUF, 'small.gguf', BASE).draft).toEqual({
      id: 'small',
      source: { kind: 'url', url: `${BASE}small.gguf` },
    });
    expect(withDraftModel(GGUF, 'inpage-test', BASE).draft).toEqual({
      id: 'inpage-test',
      source: { kind: 'builtin' },
    });
  });

  it('is a 400 naming draftModel for a WebLLM model or a draft that is not a GGUF', () => {
    const webllm: ModelSpec = { id: 'w', backend: 'webllm', source: { kind: 'webllm', variants: [] } };
    expect(paramOf(() => withDraftModel(webllm, 'small.gguf', BASE))).toBe('draftModel');
    expect(paramOf(() => withDraftModel(GGUF, 'not-a-model', BASE))).toBe('model');
  });
});
