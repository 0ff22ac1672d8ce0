/**
 * Which of a model's layers attend through a sliding window, and how many cells their KV cache
 * keeps (native/load.cpp: `swa_full` false, llama-server's default), as llama.cpp decides both
 * (llama-kv-cache-iswa.cpp, llama-hparams.cpp `set_swa_pattern`), for the heap's estimate of the
 * cache (heap-choice.ts).
 */
import { archNumber, archValue, type Metadata } from './arch-metadata';

/**
 * llama.cpp's default pattern per architecture (src/models/*.cpp, `load_swa_pattern`): in each
 * group of `n` layers one is full-size, the first where `denseFirst`, else the last. A GGUF's
 * `<arch>.attention.sliding_window_pattern` (a number, or one flag per layer) overrides it.
 * An architecture not here (Llama 4's chunks, EXAONE 4's 32B among them) is counted full-size:
 * the estimate errs large.
 */
const PATTERNS: Readonly<Record<string, readonly [n: number, denseFirst: boolean]>> = {
  gemma2: [2, false],
  gemma3: [6, false],
  gemma3n: [5, false],
  'gemma-embedding': [6, false],
  'gpt-oss': [2, false],
  cohere2: [4, false],
  cohere2moe: [4, true],
  olmo2: [4, false],
  afmoe: [4, false],
  mellum: [4, false],
  plamo3: [8, false],
  smallthinker: [4, true],
};

/** The window, in tokens: the GGUF's `<arch>.attention.sliding_window`; Gemma 2's default 4,096 where it has none. */
export function slidingWindow(metadata: Metadata): number {
  const given = archNumber(metadata, 'attention.sliding_window');
  if (given !== undefined) return given;
  return metadata.get('general.architecture') === 'gemma2' ? 4096 : 0;
}

/** The number of sliding-window layers among the model's `layers`: 0 without a window. */
export function slidingLayers(metadata: Metadata, layers: number): number {
  const arch = metadata.get('general.architecture');
  const pattern = typeof arch === 'string' ? PATTERNS[arch] : undefined;
  if (!pattern || slidingWindow(metadata) <= 0) return 0;
  const given = archValue(metadata, 'attention.sliding_window_pattern');
  if (Array.isArray(given)) return given.slice(0, layers).filter((flag) => flag === true).length;
  const n = typeof given === 'number' ? given : pattern[0];
  const denseFirst = pattern[1];
  let sliding = 0;
  for (let layer = 0; layer < layers; layer++)
    if (n === 0 || (denseFirst ? layer % n !== 0 : layer % n < n - 1)) sliding++;
  return sliding;
}

/**
 * The cells a sliding layer keeps in each sequence's stream: its window and a micro-batch, at most
 * the stream's context, padded to 256. (llama.cpp counts every slot's window where one cache
 * serves several; the engine's several slots have a stream each: native/load.cpp.)
 */
export function slidingCells(metadata: Metadata, contextPerStream: number, microBatch: number): number {
  return Math.ceil(Math.min(contextPerStream, slidingWindow(metadata) + microBatch) / 256) * 256;
}
