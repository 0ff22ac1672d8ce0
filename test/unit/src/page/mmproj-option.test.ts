import { describe, expect, it } from 'vitest';
import { paramOf } from './refused-param';
import type { ModelSpec } from '../../../../src/core/domain/model-spec';
import { withProjector } from '../../../../src/page/mmproj-option';

const BASE = 'https://example.test/app/';
const GGUF: ModelSpec = { id: 'vision', backend: 'llamacpp', source: { kind: 'url', url: `${BASE}vision.gguf` } };

describe('withProjector', () => {
  it("puts the projector, named as a model is, on the model's spec", () => {
    expect(withProjector(GGUF, 'vision.mmproj.gguf', BASE).mmproj).toEqual({
      id: 'vision.mmproj',
      source: { kind: 'url', url: `${BASE}vision.mmproj.gguf` },
    });
  });

  it('is a 400 naming mmproj for a WebLLM model or the built-in model, and model for a name that is no GGUF', () => {
    const webllm: ModelSpec = { id: 'w', backend: 'webllm', source: { kind: 'webllm', variants: [] } };
    expect(paramOf(() => withProjector(webllm, 'p.gguf', BASE))).toBe('mmproj');
    expect(paramOf(() => withProjector(GGUF, 'inpage-test', BASE))).toBe('mmproj');
    expect(paramOf(() => withProjector(GGUF, 'not-a-model', BASE))).toBe('model');
  });
});
