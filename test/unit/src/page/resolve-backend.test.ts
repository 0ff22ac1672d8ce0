import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../src/core/domain/errors';
import type { WebLLMModelOptions } from '../../../../src/page/backends/page-backend';
import { chooseBackend, resolveModels, type BackendChoice } from '../../../../src/page/resolve-backend';

const BASE = 'https://app.example/demo/index.html';
const CATALOGUE_ID = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
const SELF_HOSTED: WebLLMModelOptions = { id: 'mine', url: '/models/mine/', modelLib: '/models/mine.wasm' };

/** The error `resolveModels` throws (an `InvalidRequestError` on `model`), or null. */
function failure(model: string | WebLLMModelOptions, backend: BackendChoice | undefined): InvalidRequestError | null {
  try {
    resolveModels(model, backend, BASE);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return error as InvalidRequestError;
  }
}

describe('chooseBackend (no backend named: the model says which)', () => {
  it.each([
    [CATALOGUE_ID, 'webllm'],
    ['snowflake-arctic-embed-m-q0f32-MLC-b4', 'webllm'],
    ['inpage-test', 'llamacpp'],
    ['/models/inpage-test-qwen3.gguf', 'llamacpp'],
    ['https://cdn.example/m.gguf?download=1', 'llamacpp'],
    ['gpt-4', 'llamacpp'],
    [undefined, 'llamacpp'],
  ] as const)('%s -> %s', (model, backend) => {
    expect(chooseBackend(model)).toBe(backend);
  });

  it('a self-hosted WebLLM model is webllm; a full spec keeps its backend; a named backend always wins', () => {
    expect(chooseBackend(SELF_HOSTED)).toBe('webllm');
    expect(chooseBackend({ id: 'x', backend: 'webllm', source: { kind: 'builtin' } })).toBe('webllm');
    expect(chooseBackend(CATALOGUE_ID, 'llamacpp')).toBe('llamacpp');
    expect(chooseBackend('inpage-test', 'auto')).toBe('auto');
  });
});

describe('resolveModels', () => {
  it('no backend: a catalogue id is a webllm spec without fallback; inpage-test and GGUF URLs are llamacpp', () => {
    expect(resolveModels(CATALOGUE_ID, undefined, BASE)).toStrictEqual({
      primary: { id: CATALOGUE_ID, backend: 'webllm', source: { kind: 'webllm', variants: [{ id: CATALOGUE_ID }] } },
      fallback: null,
    });
    expect(resolveModels('inpage-test', undefined, BASE).primary.backend).toBe('llamacpp');
    expect(resolveModels('models/tiny.gguf', undefined, BASE).primary).toStrictEqual({
      id: 'tiny',
      backend: 'llamacpp',
      source: { kind: 'url', url: 'https://app.example/demo/models/tiny.gguf' },
    });
    expect(resolveModels(SELF_HOSTED, undefined, BASE).primary.backend).toBe('webllm');
  });

  it('no backend: an id that is neither is a 400 model_not_found naming all three kinds', () => {
    const error = failure('Qwen2.5-0.5B-Instruct-q4f16-MLC', undefined);
    expect(error).toMatchObject({ status: 400, param: 'model', code: 'model_not_found' });
    expect(error?.message).toMatch(
      /Unknown model 'Qwen2\.5-0\.5B-Instruct-q4f16-MLC'.*inpage-test.*\.gguf.*WebLLM catalogue id/,
    );
  });

  it('a named backend wins: llamacpp with a WebLLM model, webllm with a GGUF model, are clear errors', () => {
    for (const model of [CATALOGUE_ID, SELF_HOSTED]) {
      const error = failure(model, 'llamacpp');
      expect(error).toMatchObject({ status: 400, param: 'model', code: 'model_not_found' });
      expect(error?.message).toMatch(/is a WebLLM model.*use backend 'webllm' or 'auto', or name no backend/);
    }
    expect(failure('inpage-test', 'webllm')?.message).toMatch(/'inpage-test' is a GGUF model/);
    expect(failure('gpt-4', 'llamacpp')?.message).toMatch(/Unknown model 'gpt-4'/);
  });

  it("webllm takes any other id (the engine's WebLLM has the last word); auto adds the llama.cpp fallback", () => {
    expect(resolveModels('Some-Newer-Model-q4f16_1-MLC', 'webllm', BASE)).toMatchObject({
      primary: { backend: 'webllm' },
      fallback: null,
    });
    expect(resolveModels(CATALOGUE_ID, 'auto', BASE, { fallbackModel: 'm.gguf' })).toMatchObject({
      primary: { id: CATALOGUE_ID, backend: 'webllm' },
      fallback: { id: 'm', backend: 'llamacpp' },
    });
    expect(resolveModels('inpage-test', 'auto', BASE)).toMatchObject({
      primary: { id: 'inpage-test', backend: 'llamacpp' },
      fallback: null,
    });
  });
});
