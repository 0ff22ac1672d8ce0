export { startInpage } from './browser/start-inpage';
export type { Inpage, InpageOptions } from './browser/start-inpage';
export { INPAGE_TEST_MODEL, resolveModel } from './browser/resolve-model';
export { OpenAIError, InvalidRequestError, NotFoundError, ServiceUnavailableError, InternalServerError } from './core/errors';
export type { OpenAIErrorBody } from './core/errors';
export type { ModelCard, BackendName, ModelStatus } from './core/model-card';
export type { ModelSpec, ModelSource, LoadProgress } from './core/model-spec';
export type { CompletionRequest, Completion, Usage, FinishReason } from './core/openai/types';
export { buildInpageTestModel, inpageTestLogprobs, INPAGE_TEST_MODEL_ID } from './test-model/inpage-test-model';
