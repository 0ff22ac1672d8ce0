import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../src/core/domain/errors';
import type { ModelSpec } from '../../../../src/core/domain/model-spec';
import { INPAGE_TEST_MODEL, resolveModel } from '../../../../src/page/resolve-model';

const BASE = 'https://app.example/demo/index.html';

describe('resolveModel', () => {
  it("resolves 'inpage-test' to the builtin spec", () => {
    const spec = resolveModel('inpage-test', BASE);
    expect(spec).toStrictEqual({ id: 'inpage-test', backend: 'llamacpp', source: { kind: 'builtin' } });
    expect(spec).toBe(INPAGE_TEST_MODEL);
  });

  it.each([
    ['models/tiny.gguf', 'tiny', 'https://app.example/demo/models/tiny.gguf'],
    ['./qwen2.5-0.5b-q4_k_m.gguf', 'qwen2.5-0.5b-q4_k_m', 'https://app.example/demo/qwen2.5-0.5b-q4_k_m.gguf'],
    ['../m.gguf', 'm', 'https://app.example/m.gguf'],
    ['/static/a/b.gguf', 'b', 'https://app.example/static/a/b.gguf'],
    [
      'https://cdn.example/x/Llama-3-00001-of-00002.gguf',
      'Llama-3-00001-of-00002',
      'https://cdn.example/x/Llama-3-00001-of-00002.gguf',
    ],
    ['https://cdn.example/y.gguf?download=1', 'y', 'https://cdn.example/y.gguf?download=1'],
  ])('resolves the GGUF URL %s against the base', (model, id, url) => {
    expect(resolveModel(model, BASE)).toStrictEqual({ id, backend: 'llamacpp', source: { kind: 'url', url } });
  });

  it.each(['llama-3', 'models/tiny.bin', 'https://cdn.example/model', 'tiny.gguf.txt', 'inpage-test2'])(
    'rejects %s as an unknown model naming param model',
    (model) => {
      let caught: unknown;
      try {
        resolveModel(model, BASE);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InvalidRequestError);
      if (!(caught instanceof InvalidRequestError)) return;
      expect(caught.status).toBe(400);
      expect(caught.param).toBe('model');
      expect(caught.code).toBe('model_not_found');
      expect(caught.message).toContain(model);
    },
  );

  it('passes a full spec through unchanged', () => {
    const spec: ModelSpec = {
      id: 'custom',
      backend: 'webllm',
      source: { kind: 'url', url: 'https://cdn.example/no-extension' },
      contextLength: 2048,
    };
    expect(resolveModel(spec, BASE)).toBe(spec);
  });
});
