import { InvalidRequestError, OpenAIError, ServiceUnavailableError } from '#core/domain/errors';

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const nameOf = (error: unknown): string => (error instanceof Error ? error.name : '');

/** Where a WebLLM load failed, for the message. */
export interface LoadContext {
  model: string;
  variant: string;
  modelLib: string;
  /** WebLLM reported progress, so its model library was instantiated. */
  libraryLoaded: boolean;
}

/** A GPU failure WebLLM reports by class or message, as our stable 503 (null: not one). */
export function gpuError(error: unknown): ServiceUnavailableError | null {
  const name = nameOf(error);
  const reason = reasonOf(error);
  if (name === 'WebGPUNotAvailableError' || /compatible GPU/.test(reason)) {
    return new ServiceUnavailableError(
      `WebGPU is not available: ${reason} Use a browser with WebGPU enabled, or start with backend: 'auto' to fall back to the CPU backend.`,
      'webgpu_unavailable',
    );
  }
  if (name === 'ShaderF16SupportError') {
    return new ServiceUnavailableError(
      "This GPU lacks the WebGPU feature 'shader-f16' the model needs: use a q4f32/q0f32 build of the model.",
      'shader_f16_unavailable',
    );
  }
  if (name === 'FeatureSupportError')
    return new ServiceUnavailableError(
      `${reason} Use another build of the model or another browser.`,
      'webgpu_feature_unavailable',
    );
  if (
    /requested max\w+ exceeds limit|requested maxComputeWorkgroupStorageSize|requested maxStorageBuffersPerShaderStage/.test(
      reason,
    )
  ) {
    return new ServiceUnavailableError(
      `The GPU's WebGPU limits are too low for WebLLM: ${reason}`,
      'webgpu_limits_too_low',
    );
  }
  if (name === 'DeviceLostError' || name === 'ModelNotLoadedError' || /device (was )?lost/i.test(reason)) {
    return new ServiceUnavailableError(
      'The WebGPU device was lost (out of GPU memory, or the GPU was reset). Reload the page, or use a smaller model or context.',
      'device_lost',
    );
  }
  return null;
}

/** A WebLLM load failure as the OpenAI error the user sees (always a 503 naming the cause). */
export function mapLoadError(error: unknown, context: LoadContext): OpenAIError {
  if (error instanceof OpenAIError) return error;
  const gpu = gpuError(error);
  if (gpu) return gpu;
  const reason = reasonOf(error);
  if (nameOf(error) === 'QuotaExceededError') {
    return new ServiceUnavailableError(
      `The browser's storage quota is exhausted while caching '${context.model}': ${reason} Delete cached models or free disk space.`,
      'storage_quota_exceeded',
    );
  }
  if (!context.libraryLoaded && nameOf(error) !== 'UnsupportedTokenizerFilesError') {
    return new ServiceUnavailableError(
      `The model library of '${context.model}' (${context.modelLib}, variant ${context.variant}) could not be loaded: ${reason}. ` +
        'It must be a WebLLM model library (.wasm) compiled for this version of @mlc-ai/web-llm; check the modelLib URL.',
      'model_library_failed',
    );
  }
  return new ServiceUnavailableError(
    `Loading '${context.model}' on the webllm backend failed: ${reason}`,
    'model_load_failed',
    { cause: error },
  );
}

/** The request fields a generation's errors name: its prompt's, and its constraint's (or null). */
export interface GenerateFields {
  prompt: 'prompt' | 'messages';
  constraint: string | null;
}

/**
 * A failure during generation: device lost -> 503; a prompt longer than WebLLM's context window
 * -> 400 `context_length_exceeded` (a conversation's size is known only once WebLLM rendered it);
 * a constraint xgrammar cannot compile -> 400 naming it; anything else as it is.
 */
export function mapGenerateError(error: unknown, fields?: GenerateFields): Error {
  const gpu = gpuError(error);
  if (gpu) return gpu;
  if (fields && nameOf(error) === 'ContextWindowSizeExceededError')
    return new InvalidRequestError(reasonOf(error), fields.prompt, 'context_length_exceeded');
  if (fields?.constraint && nameOf(error) === 'GrammarMatcherInitError')
    return new InvalidRequestError(
      `'${fields.constraint}' could not be compiled by WebLLM's grammar engine: ${reasonOf(error)}`,
      fields.constraint,
      'invalid_value',
    );
  return error instanceof Error ? error : new Error(reasonOf(error));
}
