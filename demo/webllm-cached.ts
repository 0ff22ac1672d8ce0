/**
 * Whether WebLLM's cache holds a catalogue model's weights manifest, checked with the Cache
 * API directly (loading WebLLM into the page just to ask would cost its 6 MB bundle).
 * `webllm/model` is the cache WebLLM (and our prefetch) stores weights in.
 */
export async function webllmManifestCached(modelIds: readonly string[]): Promise<boolean> {
  if (typeof caches === 'undefined' || !(await caches.has('webllm/model'))) return false;
  const keys = await (await caches.open('webllm/model')).keys();
  return keys.some((request) =>
    modelIds.some((id) => request.url.includes(`/${id}/`) && request.url.endsWith('tensor-cache.json')),
  );
}
