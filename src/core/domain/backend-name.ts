/** Backends an engine can run a model on. */
export type BackendName = 'llamacpp' | 'webllm';
