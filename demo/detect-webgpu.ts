/** Whether this browser hands out a WebGPU adapter (false on a timeout of `ms`). */
export async function detectWebGpu(ms = 2000): Promise<boolean> {
  const gpu: unknown = Reflect.get(navigator, 'gpu');
  if (typeof gpu !== 'object' || gpu === null) return false;
  const requestAdapter: unknown = Reflect.get(gpu, 'requestAdapter');
  if (typeof requestAdapter !== 'function') return false;
  const adapter = Promise.resolve<unknown>(Reflect.apply(requestAdapter, gpu, [])).catch(() => null);
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), ms));
  return (await Promise.race([adapter, timeout])) != null;
}
