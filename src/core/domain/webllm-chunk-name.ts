/**
 * WebLLM's code is one ~6 MB chunk that the engine worker imports only when a WebLLM model
 * loads. The builds name it `webllm` so the Service Worker can leave it out of the precache
 * (llama.cpp users never download it) and cache it at run time instead (WebLLM still works
 * offline once it ran).
 */
export const WEBLLM_CHUNK = 'webllm';

/** Whether a built chunk holds WebLLM's code (the build's chunk-naming hook). */
export function isWebLLMChunk(moduleIds: readonly string[]): boolean {
  return moduleIds.some((id) => id.includes('@mlc-ai/web-llm'));
}

/** Whether a request path is the WebLLM chunk: `assets/webllm-<hash>.js` or `inpage-llm/webllm.js`. */
export function isWebLLMChunkPath(pathname: string): boolean {
  return /\/webllm(?:-[\w-]+)?\.js$/.test(pathname);
}
