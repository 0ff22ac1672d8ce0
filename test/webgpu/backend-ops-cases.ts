/**
 * Which of test-backend-ops' cases the WebGPU suites run, in Chromium (backend-ops.ts) and in
 * Node (backend-ops-node.ts): the ops, and a parameter filter for those whose whole suite takes
 * too long here. WEBGPU_OPS and WEBGPU_OPS_PARAMS replace them.
 */

export const DEFAULT_OPS = ['MUL_MAT', 'FLASH_ATTN_EXT', 'ROPE', 'SOFT_MAX', 'GET_ROWS'];

/**
 * test-backend-ops' `-p` (a regex its cases' parameters must match) for the ops whose whole suite
 * takes too long here. MUL_MAT's (over 1,600 cases, not done in 16 min): every type_a against
 * an F32 type_b in 16x256 blocks, for 1 and 16 columns (the vector and the matrix kernels).
 * FLASH_ATTN_EXT's thousands (head sizes to 576, KV to 2,048 cells): 64-wide heads over 113 KV
 * cells, every KV type among them. WEBGPU_OPS_PARAMS replaces them for every op run (empty: each
 * op's whole suite).
 */
const DEFAULT_PARAMS: Record<string, string> = {
  MUL_MAT: '^type_a=[^,]+,type_b=f32,m=16,n=(1|16),k=256,',
  FLASH_ATTN_EXT: '^hsk=64,hsv=64,.*,kv=113,',
};

/** The ops to run (WEBGPU_OPS, comma-separated, or DEFAULT_OPS). */
export function opsToRun(env: NodeJS.ProcessEnv): string[] {
  return (env.WEBGPU_OPS ?? DEFAULT_OPS.join(',')).split(',').filter(Boolean);
}

/** test-backend-ops' arguments for `op`: `test -o OP`, with its `-p` filter where it has one. */
export function opArguments(op: string, env: NodeJS.ProcessEnv): string[] {
  const params = env.WEBGPU_OPS_PARAMS ?? DEFAULT_PARAMS[op];
  return ['test', '-o', op, ...(params ? ['-p', params] : [])];
}
