/**
 * The shape of node-engine.json, the device check's report (node-engine.ts writes it; the lavapipe
 * test and speed-table.ts read it). An entry with `error` is an engine or baseline that failed to
 * answer; the other fields are then absent.
 */

/** One engine's greedy answer to a model, the `simd` CPU engine's or one that followed its tokens. */
export interface ReportAnswer {
  engine?: string;
  /** The GPU devices the engine's llama.cpp had (0: every layer on the CPU). */
  gpuDevices: number;
  /** The vision pair: whether mtmd put the projector on the GPU. */
  projectorOnGpu?: boolean;
  loadMs?: number;
  prefillTokS?: number;
  decodeTokS?: number;
  /** The wasm heap after the answer (reports from 2026-12-06 on). */
  heapBytes?: number;
  /** The bytes of the GPU buffers the engine created (reports from 2026-12-06 on). */
  gpuBufferBytes?: number;
  /** Its greedy tokens (an engine that followed the `simd` engine's: its own argmax at each position). */
  tokens?: number[];
  /** Against the `simd` engine (absent on its own answer): every position's argmax its token. */
  sameTokens?: boolean;
  /** Positions whose argmax differed, with the `simd` engine's margin there. */
  flips?: { at: number; margin: number }[];
  /** The largest difference in the logprob of the `simd` engine's token. */
  logprobGap?: number;
  decodeVsSimd?: number;
  error?: string;
}

/** The browser peer (wllama) on the same device, free-running from the same prompt. */
export interface ReportBaseline {
  loadMs?: number;
  prefillTokS?: number;
  decodeTokS?: number;
  sameTokens?: boolean;
  /** Tokens equal to the `simd` engine's before the first that differs. */
  commonTokens?: number;
  logprobGap?: number;
  error?: string;
}

export interface NodeEngineReport {
  node?: string;
  adapter: { vendor?: string; architecture?: string; description: string; f16: boolean } | null;
  maxStorageBufferBindingSize?: number;
  /** What the run was asked for (absent in reports from before 2026-12-06). */
  settings?: { tokens: number; promptTokens: number; tolerance: number; engines: string[]; baselines: string[] };
  models: Record<
    string,
    { bytes?: number; answers: Record<string, ReportAnswer>; baselines?: Record<string, ReportBaseline> }
  >;
  failures: string[];
  /** Written with the last model; a report without it was stopped (the device tool's limit) and holds the models before. */
  complete?: boolean;
}
