/**
 * llama-server's samplers, as wllama 3.13 takes them, all off but the greedy choice: llama-server's
 * own defaults (top_k 40, min_p 0.05) are not off. The bench's wllama page and the device check's
 * wllama baseline (test/webgpu/wllama-node.ts) send these.
 */
export const GREEDY_SERVER = {
  top_p: 1,
  top_k: 0,
  min_p: 0,
  typical_p: 1,
  mirostat: 0,
  presence_penalty: 0,
  frequency_penalty: 0,
  repeat_penalty: 1,
};
