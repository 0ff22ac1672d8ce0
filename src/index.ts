export { startInpage } from './page/start-inpage';
export type {
  DeviceState,
  Inpage,
  InpageOptions,
  ModelManager,
  StoredModelInfo,
  StoredModelsUsage,
} from './page/start-inpage';
export { parseRouteTable, RouteTableError } from './core/route-table/parse-route-table';
export type { RouteTable, RouteConfig, UpstreamConfig, ParamPolicy } from './core/route-table/route-table-schema';
export type { DirectEvent } from './page/direct-stream';
export type { RequestRecord } from './core/protocol/engine-api';
export { INPAGE_TEST_MODEL, resolveModel } from './page/resolve-model';
export { resolveModels, resolveWebLLM } from './page/resolve-backend';
export type { BackendChoice, WebLLMModelOptions, ResolvedModels } from './page/resolve-backend';
export type { WebLLMCacheBackend, WebLLMSource, WebLLMVariant } from './core/domain/webllm-source';
export {
  OpenAIError,
  AuthenticationError,
  InvalidRequestError,
  NotFoundError,
  ServiceUnavailableError,
  InternalServerError,
} from './core/domain/errors';
export type { OpenAIErrorBody } from './core/domain/errors';
export type { ModelCard, ModelStatus } from './core/domain/model-card';
export type { BackendName } from './core/domain/backend-name';
export type { ModelSpec, ModelSource, LoadProgress } from './core/domain/model-spec';
export type { CompletionRequest, Completion, Usage, FinishReason } from './core/openai/types';
export { buildInpageTestModel, inpageTestLogprobs, INPAGE_TEST_MODEL_ID } from './builtin-model/inpage-test-model';
export { ISOLATION_MODES } from './core/domain/isolation';
export type { IsolationMode } from './core/domain/isolation';
export { parseThreads } from './core/domain/threads';
export { parseSlots, MAX_SLOTS } from './core/domain/slot-count';
export { parseGpuLayers, DEFAULT_GPU_LAYERS, MAX_GPU_LAYERS } from './core/domain/accelerator';
export type { Accelerator, AcceleratorReason, GpuLayers } from './core/domain/accelerator';
export type { ThreadCounts, ThreadsOption } from './core/domain/threads';
