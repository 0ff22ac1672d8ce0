/**
 * npm `webgpu` (Dawn's Node binding, `dawn.node`), as node-gpu.ts uses it. Not a dependency:
 * scripts/engine/webgpu/pack-device.sh packs it beside the bundle, for a GPU host.
 */
declare module 'webgpu' {
  /** A `navigator.gpu` for Node, with Dawn's toggles (`enable-dawn-features=...`). */
  export function create(options: string[]): GPU;
  /** WebGPU's global constants (`GPUBufferUsage`, ...). */
  export const globals: Record<string, unknown>;
}
