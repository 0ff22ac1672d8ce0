import { InvalidRequestError } from '../../src/core/errors';
import type { CompletionRequest } from '../../src/core/openai/types';
import type { LoadedModel } from './backend';

/** Parameters whose value differs from "off", as the backend capability check names them. */
function activeParams(request: CompletionRequest): string[] {
  const active: Array<[string, boolean]> = [
    ['top_k', request.top_k > 0],
    ['min_p', request.min_p > 0],
    ['typical_p', request.typical_p < 1],
    ['mirostat', request.mirostat !== 0],
    ['presence_penalty', request.presence_penalty !== 0],
    ['frequency_penalty', request.frequency_penalty !== 0],
    ['repetition_penalty', request.repetition_penalty !== 1],
    ['logit_bias', Object.keys(request.logit_bias).length > 0],
    ['seed', request.seed !== null],
    ['min_tokens', request.min_tokens > 0],
    ['ignore_eos', request.ignore_eos],
    ['stop_token_ids', request.stop_token_ids.length > 0],
    ['logprobs', request.logprobs !== null],
    ['echo', request.echo],
    ['token_ids', request.prompts.some((prompt) => typeof prompt !== 'string')],
  ];
  return active.filter(([, on]) => on).map(([name]) => name);
}

/**
 * Refuses, before any generation, what this model cannot honour: a 400 naming the parameter
 * (never a silent ignore), token ids outside the vocabulary, and `suffix` without FIM support.
 */
export function checkCapabilities(model: LoadedModel, request: CompletionRequest): void {
  for (const param of activeParams(request)) {
    if (model.capabilities.unsupported.has(param)) {
      const name = param === 'token_ids' ? 'prompt' : param;
      const what = param === 'token_ids' ? 'Token-id prompts are' : `'${param}' is`;
      throw new InvalidRequestError(`${what} not supported by this model's backend.`, name, 'unsupported_parameter');
    }
  }
  if (request.suffix !== null && !model.capabilities.suffix) {
    throw new InvalidRequestError("'suffix' (fill-in-the-middle) is not supported by this model.", 'suffix', 'unsupported_parameter');
  }
  const idsByParam: Array<[string, number[]]> = [
    ['prompt', request.prompts.flatMap((prompt) => (typeof prompt === 'string' ? [] : prompt))],
    ['stop_token_ids', request.stop_token_ids],
    ['logit_bias', Object.keys(request.logit_bias).map(Number)],
  ];
  for (const [param, ids] of idsByParam) {
    const outside = ids.find((id) => id >= model.vocabSize);
    if (outside !== undefined) {
      throw new InvalidRequestError(`Token id ${outside} in '${param}' is outside the vocabulary (size ${model.vocabSize}).`, param, 'invalid_token_id');
    }
  }
}
