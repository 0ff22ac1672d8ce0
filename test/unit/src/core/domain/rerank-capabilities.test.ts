/** The SW's rerank capability check: models that are not rerankers, pairs past the context. */
import { describe, expect, it } from 'vitest';
import type { ModelCapabilities } from '../../../../../src/core/domain/capabilities';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import { checkRerankCapabilities } from '../../../../../src/core/domain/rerank';
import { WEBLLM_UNSUPPORTED } from '../../../../../worker/engine/backends/webllm/request';

const capabilities: ModelCapabilities = { unsupported: [], context_length: 8, vocab_size: 258, max_token_bytes: 1 };

function refusal(caps: ModelCapabilities, query: string, documents: string[]) {
  try {
    checkRerankCapabilities(caps, { model: 'm', query, documents });
  } catch (error) {
    if (error instanceof InvalidRequestError) return { param: error.param, code: error.code };
    throw error;
  }
  return null;
}

describe('checkRerankCapabilities', () => {
  it('passes a reranker whose pairs can fit', () => {
    expect(refusal(capabilities, 'abcd', ['efgh', ''])).toBeNull();
  });

  it('refuses a model that is not a reranker (a llamacpp model without rank pooling, any webllm model), naming model', () => {
    for (const unsupported of [['rerank' as const], [...WEBLLM_UNSUPPORTED]])
      expect(refusal({ ...capabilities, unsupported }, 'q', ['d'])).toEqual({
        param: 'model',
        code: 'unsupported_parameter',
      });
  });

  it('refuses a document that cannot fit the context with the query, naming documents', () => {
    expect(refusal(capabilities, 'abcd', ['efgh', 'efghi'])).toEqual({
      param: 'documents',
      code: 'context_length_exceeded',
    });
  });
});
