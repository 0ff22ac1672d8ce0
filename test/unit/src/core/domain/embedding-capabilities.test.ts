/** The SW's embeddings capability check: models that cannot embed, ids outside the vocabulary, over-long inputs. */
import { describe, expect, it } from 'vitest';
import { checkEmbeddingCapabilities } from '../../../../../src/core/domain/embedding';
import type { ModelCapabilities } from '../../../../../src/core/domain/capabilities';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import { WEBLLM_UNSUPPORTED } from '../../../../../worker/engine/backends/webllm/request';

const capabilities: ModelCapabilities = { unsupported: [], context_length: 8, vocab_size: 258, max_token_bytes: 1 };

function refusal(caps: ModelCapabilities, inputs: Array<string | number[]>) {
  try {
    checkEmbeddingCapabilities(caps, { model: 'm', inputs });
  } catch (error) {
    if (error instanceof InvalidRequestError) return { param: error.param, code: error.code };
    throw error;
  }
  return null;
}

describe('checkEmbeddingCapabilities', () => {
  it('passes text and ids the model can embed', () => {
    expect(refusal(capabilities, ['ab', [97, 98], 'x'.repeat(8)])).toBeNull();
  });

  it('refuses a model that cannot embed (a generative webllm model), naming model', () => {
    expect(refusal({ ...capabilities, unsupported: [...WEBLLM_UNSUPPORTED] }, ['ab'])).toEqual({
      param: 'model',
      code: 'unsupported_parameter',
    });
  });

  it('refuses ids outside the vocabulary and inputs longer than the context, naming input', () => {
    expect(refusal(capabilities, [[97, 258]])).toEqual({ param: 'input', code: 'invalid_token_id' });
    expect(refusal(capabilities, ['x'.repeat(9)])).toEqual({ param: 'input', code: 'context_length_exceeded' });
  });
});
