let detected: Promise<boolean> | undefined;

/**
 * Whether this browser hands out a WebGPU adapter (false on a timeout of `ms`). Asked once per
 * page: without an adapter Chromium logs "No available adapters." on every `requestAdapter()`.
 */
export function detectWebGpu(ms = 2000): Promise<boolean> {
  detected ??= requestAnyAdapter(ms);
  return detected;
}

async function requestAnyAdapter(ms: number): Promise<boolean> {
  const gpu: unknown = Reflect.get(navigator, 'gpu');
  if (typeof gpu !== 'object' || gpu === null) return false;
  const requestAdapter: unknown = Reflect.get(gpu, 'requestAdapter');
  if (typeof requestAdapter !== 'function') return false;
  const adapter = Promise.resolve<unknown>(Reflect.apply(requestAdapter, gpu, [])).catch(() => null);
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), ms));
  return (await Promise.race([adapter, timeout])) != null;
}
