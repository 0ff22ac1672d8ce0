/** Backends an engine can run a model on. */
export type BackendName = 'llamacpp' | 'webllm';

/** Where a model stands in its page's engine. */
export type ModelStatus = 'loading' | 'ready' | 'failed';

/** One entry of `GET /v1/models` (OpenAI's model object plus what this runtime knows). */
export interface ModelCard {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  backend: BackendName;
  status: ModelStatus;
  /** Why loading failed, when `status` is `failed`. */
  error?: string;
  context_length?: number;
}
