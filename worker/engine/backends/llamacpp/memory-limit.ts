/**
 * The largest GGUF the llamacpp engine can hold here, and why: the smaller of its wasm heap's
 * room for weights and what the device reports (`navigator.deviceMemory` below its ceiling, the
 * JS heap limit of `performance.memory`, where present). A model over it is refused (503
 * `model_too_large`, with both numbers) before its data downloads: from the response's
 * Content-Length, or from the GGUF header's own sizes (`ggufExtent`) as soon as it has arrived.
 */
import { ServiceUnavailableError } from '#core/domain/errors';
import { hasMemory64 } from '#core/util/memory64';

/**
 * The largest GGUF the wasm32 engine takes (4 GiB heap; the weights, the KV cache and the compute
 * buffers share it). wasm32 is the default: measured faster than memory64 (docs/engine.md).
 */
export const MAX_MODEL_BYTES = 3.5 * 2 ** 30;

/** The largest GGUF the memory64 variants take: 16 GiB, Chromium's and Firefox's memory64 limit, less the same room. */
export const MAX_MODEL_BYTES_MEMORY64 = 15.5 * 2 ** 30;

/** `navigator.deviceMemory`'s ceiling (the spec caps it at 8): a device that reports it may have any more. */
const DEVICE_MEMORY_CEILING = 8;

export interface MemoryLimit {
  bytes: number;
  /** Where the bound comes from (said in the error). */
  why: string;
}

/** What the device reports; absent fields are not reported here. */
export interface DeviceMemory {
  /** `navigator.deviceMemory`: GB of RAM, rounded and capped by the browser. */
  deviceMemory?: number;
  /** `performance.memory.jsHeapSizeLimit` (Chromium). */
  jsHeapSizeLimit?: number;
}

/** What this context reports of its device. */
export function deviceMemory(): DeviceMemory {
  const reported: DeviceMemory = {};
  const gb: unknown = typeof navigator !== 'undefined' ? Reflect.get(navigator, 'deviceMemory') : undefined;
  if (typeof gb === 'number' && gb > 0) reported.deviceMemory = gb;
  const heap: unknown = typeof performance !== 'undefined' ? Reflect.get(performance, 'memory') : undefined;
  const limit: unknown = typeof heap === 'object' && heap !== null ? Reflect.get(heap, 'jsHeapSizeLimit') : undefined;
  if (typeof limit === 'number' && limit > 0) reported.jsHeapSizeLimit = limit;
  return reported;
}

/** The smallest of the engine's bound (memory64's where the browser runs it) and the device's. */
export function memoryLimit(device: DeviceMemory = deviceMemory(), memory64: boolean = hasMemory64()): MemoryLimit {
  const bounds: MemoryLimit[] = [
    memory64
      ? {
          bytes: MAX_MODEL_BYTES_MEMORY64,
          why: "the llamacpp engine's memory64 heap, 16 GiB less room for its context",
        }
      : { bytes: MAX_MODEL_BYTES, why: "the llamacpp engine's wasm32 heap, 4 GiB less room for its context" },
  ];
  if (device.deviceMemory !== undefined && device.deviceMemory < DEVICE_MEMORY_CEILING)
    bounds.push({ bytes: device.deviceMemory * 2 ** 30, why: `the device's memory (${device.deviceMemory} GB)` });
  if (device.jsHeapSizeLimit !== undefined)
    bounds.push({ bytes: device.jsHeapSizeLimit, why: "the browser's JavaScript heap limit" });
  return bounds.reduce((least, bound) => (bound.bytes < least.bytes ? bound : least));
}

const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GiB`;

/** The 503 for `model`, `size` bytes by `source` (its file, its Content-Length, its header), over `limit`. */
export function tooLarge(model: string, size: number, source: string, limit: MemoryLimit): ServiceUnavailableError {
  return new ServiceUnavailableError(
    `'${model}' is ${gib(size)} (${size} bytes, from ${source}): more than can be held here, ${gib(limit.bytes)} ` +
      `(${limit.bytes} bytes: ${limit.why}). Use a smaller quantization, or the webllm backend.`,
    'model_too_large',
  );
}
