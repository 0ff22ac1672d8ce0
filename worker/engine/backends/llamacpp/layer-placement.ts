/**
 * Where llama.cpp puts a model's tensors for `n_gpu_layers` (llama-model.cpp's load_tensors), from
 * the GGUF's tensor table, before the load: of the `layers` repeating layers and the output layer,
 * the last `gpuLayers` go to the GPU, the output layer first (`i_gpu_start`); the input layer
 * (`token_embd`, "very little benefit to offloading") and any tensor outside the layers stay on
 * the CPU. With tied embeddings (no `output.weight`) the output layer takes `token_embd` again.
 */

export interface LayerPlacement {
  /** The bytes of the tensors on the CPU. */
  cpuBytes: number;
  /** The largest tensor on the GPU (0: none there): one GPU buffer binding must hold it. */
  largestOnGpu: number;
  /** The repeating layers on the CPU (their KV cache stays there too). */
  cpuLayers: number;
}

/** Which layer a tensor belongs to: a repeating layer's index, `output`, or the input (the rest). */
function tensorLayer(name: string): number | 'output' | 'input' {
  const block = /^blk\.(\d+)\./.exec(name);
  if (block) return Number(block[1]);
  return /^output(_norm)?\./.test(name) ? 'output' : 'input';
}

export function placeLayers(
  tensors: readonly { name: string; bytes: bigint }[],
  layers: number,
  gpuLayers: number,
): LayerPlacement {
  // llama.cpp's i_gpu_start: the layers from it on, and the output layer (index `layers`), are offloaded.
  const firstOnGpu = Math.max(layers + 1 - gpuLayers, 0);
  let cpu = 0n;
  let largest = 0n;
  for (const tensor of tensors) {
    const layer = tensorLayer(tensor.name);
    const index = layer === 'output' ? layers : layer;
    if (index === 'input' || index < firstOnGpu) cpu += tensor.bytes;
    else if (tensor.bytes > largest) largest = tensor.bytes;
  }
  const embeddings = tensors.find((tensor) => tensor.name === 'token_embd.weight');
  const tied = embeddings && !tensors.some((tensor) => tensor.name === 'output.weight');
  if (tied && firstOnGpu <= layers && embeddings.bytes > largest) largest = embeddings.bytes;
  return { cpuBytes: Number(cpu), largestOnGpu: Number(largest), cpuLayers: Math.min(firstOnGpu, layers) };
}
