import { describe, expect, it } from 'vitest';
import { paramOf } from './refused-param';
import type { ModelSpec } from '../../../../src/core/domain/model-spec';
import { withLoraAdapters } from '../../../../src/page/lora-option';

const BASE = 'https://example.test/app/';
const GGUF: ModelSpec = { id: 'model', backend: 'llamacpp', source: { kind: 'url', url: `${BASE}model.gguf` } };

describe('withLoraAdapters', () => {
  it("puts the adapters, named as models are, on the model's spec in order: alone at 1, or with a scale", () => {
    expect(withLoraAdapters(GGUF, ['a.gguf', { adapter: 'b.gguf', scale: 0 }], BASE).lora).toEqual([
      { id: 'a', source: { kind: 'url', url: `${BASE}a.gguf` }, scale: 1 },
      { id: 'b', source: { kind: 'url', url: `${BASE}b.gguf` }, scale: 0 },
    ]);
    expect(withLoraAdapters(GGUF, [], BASE)).toBe(GGUF);
  });

  it('is a 400 naming lora for a WebLLM model, the built-in model, a bad scale or something not an array', () => {
    const webllm: ModelSpec = { id: 'w', backend: 'webllm', source: { kind: 'webllm', variants: [] } };
    expect(paramOf(() => withLoraAdapters(webllm, ['a.gguf'], BASE))).toBe('lora');
    expect(paramOf(() => withLoraAdapters(GGUF, ['inpage-test'], BASE))).toBe('lora');
    expect(paramOf(() => withLoraAdapters(GGUF, [{ adapter: 'a.gguf', scale: Number.NaN }], BASE))).toBe('lora');
    expect(paramOf(() => withLoraAdapters(GGUF, 'a.gguf' as unknown as [], BASE))).toBe('lora');
  });
});
