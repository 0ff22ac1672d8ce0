/// <reference lib="webworker" />
/** The engine Web Worker's entry: the engine host, exposed to the page with comlink. */
import { expose } from 'comlink';
import { registerErrorTransfer } from '#core/protocol/comlink-errors';
import { LlamaCppBackend } from './backends/llamacpp/backend';
import { WebLLMBackend } from './backends/webllm/backend';
import { EngineHost } from './engine-host';

registerErrorTransfer();
expose(new EngineHost([new LlamaCppBackend(), new WebLLMBackend()]));
