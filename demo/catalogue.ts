import type { BackendName } from '../src/index';
import { webllmManifestCached } from './webllm-cached';

/** One model the playground offers. */
export interface CatalogueEntry {
  /** The id clients pass as `model`. */
  id: string;
  /** What `startInpage({ model })` gets: `'inpage-test'` or a GGUF URL. */
  source: string;
  /** What `startInpage({ mmproj })` gets: its multimodal projector's GGUF URL, beside the model's. */
  mmproj?: string;
  label: string;
  backend: BackendName;
  /** Bytes to download before it runs (approximate for catalogue models); 0 when built in. */
  downloadBytes: number;
  /** What the browser must have. */
  requires: 'cpu' | 'webgpu';
  /** Whether its weights are already in this browser's cache (built-in models always are). */
  isCached(): Promise<boolean>;
  /** A generated test model (not a language model): listed, never chosen by default. */
  test?: boolean;
  /** Shown under the prompt while this model runs: what to expect from it. */
  promptNote?: string;
}

/**
 * The models the picker lists. Catalogue models of other backends (WebLLM on WebGPU) are added
 * here as entries; the picker, the default choice and the notices read only these fields.
 */
export const CATALOGUE: readonly CatalogueEntry[] = [
  {
    id: 'inpage-test',
    source: 'inpage-test',
    label: 'inpage-test: built-in test model',
    backend: 'llamacpp',
    downloadBytes: 0,
    requires: 'cpu',
    isCached: () => Promise.resolve(true),
    promptNote:
      'inpage-test is not a language model: it continues letters and digits in order (abc → defgh…, z → a), stops after a period and repeats anything else, so every output can be checked.',
  },
  {
    // WebLLM picks the q4f32 twin itself when the GPU lacks shader-f16; started with
    // backend 'auto', so a WebGPU failure falls back to inpage-test on the CPU.
    id: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
    source: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
    label: 'Qwen2.5 0.5B Instruct (WebLLM, WebGPU)',
    backend: 'webllm',
    downloadBytes: 290 * 1024 ** 2,
    requires: 'webgpu',
    isCached: () => webllmManifestCached(['Qwen2.5-0.5B-Instruct-q4f16_1-MLC', 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC']),
  },
  {
    id: 'inpage-test-qwen3',
    source: '/models/inpage-test-qwen3.gguf',
    label: "inpage-test-qwen3: test model with Qwen3's real tokenizer",
    backend: 'llamacpp',
    downloadBytes: 25_407_104,
    requires: 'cpu',
    test: true,
    isCached: () => Promise.resolve(false),
    promptNote:
      'inpage-test-qwen3 has Qwen3\'s real 151,936-token vocabulary and chat template, but is not a language model: after any prompt it writes "Hello, world! 你好 😀 𝔸 café." and stops, so every output can be checked.',
  },
  {
    id: 'inpage-test-vision',
    source: '/models/inpage-test-vision.gguf',
    mmproj: '/models/inpage-test-vision.mmproj.gguf',
    label: 'inpage-test-vision: test model with an image projector',
    backend: 'llamacpp',
    downloadBytes: 1_982_560,
    requires: 'cpu',
    test: true,
    isCached: () => Promise.resolve(false),
    promptNote:
      'inpage-test-vision has random weights and an mlp image projector (16 tokens per image): it is not a language model, and its output is checked against llama-server (docs/multimodal.md).',
  },
  {
    id: 'inpage-test-mrope',
    source: '/models/inpage-test-mrope.gguf',
    mmproj: '/models/inpage-test-mrope.mmproj.gguf',
    label: 'inpage-test-mrope: test model with a Qwen2-VL image projector',
    backend: 'llamacpp',
    downloadBytes: 2_261_760,
    requires: 'cpu',
    test: true,
    isCached: () => Promise.resolve(false),
    promptNote:
      'inpage-test-mrope has random weights, a Qwen2-VL image projector and a qwen2vl text model (M-RoPE: an image of w x h tokens takes max(w, h) positions): it is not a language model, and its output is checked against llama-server (docs/multimodal.md).',
  },
  {
    id: 'inpage-test-audio',
    source: '/models/inpage-test-audio.gguf',
    mmproj: '/models/inpage-test-audio.mmproj.gguf',
    label: 'inpage-test-audio: test model with an audio projector',
    backend: 'llamacpp',
    downloadBytes: 1_492_288,
    requires: 'cpu',
    test: true,
    isCached: () => Promise.resolve(false),
    promptNote:
      'inpage-test-audio has random weights and an ultravox audio projector (375 tokens per 30 s): it is not a language model, and its output is checked against llama-server (docs/multimodal.md).',
  },
];

/** `1.5 MB`, `820 KB`, `0 B`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${Math.round(bytes / 1024)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
