/**
 * The WebGPU engine in Node, for a GPU host without a browser (docs/webgpu.md, "On a lent GPU"):
 * Dawn's Node binding (`dawn.node`, npm `webgpu`) gives Node the `navigator.gpu` a page has, and
 * Node 24 has JSPI, so the committed `llama-engine-webgpu` runs there as in a worker, through
 * the engine's own `LlamaWasm`. Each model (generated here: nothing is downloaded) is answered
 * greedily by each engine, the `simd` CPU engine first; each other engine follows its tokens
 * (teacher forcing), so that each position is compared in the same context: the logprob each gives
 * the `simd` engine's token, and the positions where its own argmax differs, allowed only at a
 * near-tie (the `simd` engine's margin within twice the tolerance: the bench models' random
 * weights make many). Every engine's prefill and decode speed is reported.
 * Bundled by scripts/engine/webgpu/pack-device.sh into `.device/node-engine.mjs`.
 *   usage: node node-engine.mjs DIR   (DIR: the engines' files; writes node-engine.json to $OUT or DIR)
 *   NODE_ENGINE_MODELS (inpage-test,small-q4_0,inpage-test-vision): `inpage-test`, bench models
 *     (bench-models.ts's names) and `inpage-test-vision` (the vision pair: its projector asked onto
 *     the GPU, unlike a page today, taken where the engine has one; a prompt with an image; its patch
 *     kernel F16, as converted CLIPs have it; `inpage-test-vision-f32`: F32, for the f16-rewrite probe;
 *     `inpage-test-lora`: `inpage-test` with its two test LoRA adapters at 1 and 0.5, placed with
 *     the layers they adapt);
 *   NODE_ENGINE_ENGINES (simd,webgpu): engine names, `llama-engine-NAME.{wasm,mjs}` in DIR, every
 *     layer on the GPU where the engine has one; `NAME@N`: N layers there (llama.cpp's -ngl N), the
 *     rest on the CPU inside that engine;
 *   NODE_ENGINE_TOKENS (32), NODE_ENGINE_PROMPT (128): generated and prompt tokens;
 *   NODE_ENGINE_DAWN: Dawn toggles for `create()` (e.g. enable-dawn-features=vulkan_enable_f16_on_nvidia).
 *   NODE_ENGINE_BASELINES (none): the browser peer on the same device, reported beside the engines
 *     and never failing the check: `wllama` (wllama 3.13, `wllama.wasm` in DIR, every layer on the
 *     GPU; `wllama@N`: N layers), run in this thread (wllama-node.ts) on each text model, its
 *     prompt the `simd` engine's prompt as text, its tokens free-running;
 *   NODE_ENGINE_TOLERANCE (0.05): the largest logprob gap allowed;
 *   NODE_ENGINE_GPU_REQUIRED (0): 1 fails an engine other than `simd` that found no GPU device
 *     (where the adapter has shader-f16: lavapipe, a lent GPU), rather than comparing its CPU run.
 * Exits 0 when every engine answered and agreed with the `simd` engine so, 1 otherwise.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { ggufParts } from '../../src/builtin-model/gguf-writer';
import { LlamaWasm } from '../../worker/engine/backends/llamacpp/llama-wasm';
import { greedyAnswer } from './greedy-answer';
import { benchModelSpec, type BenchShapeName } from '../fixtures/bench-model';
import { buildInpageTestVisionModel, buildInpageTestVisionProjector } from '../fixtures/inpage-test-vision';
import { gradientPng } from '../fixtures/test-media';
import { buildInpageTestLoraAttn, buildInpageTestLoraBack } from '../fixtures/inpage-test-lora';
import type { GgmlType } from '../../src/builtin-model/quantize';
import type { RawCandidate } from '../../worker/engine/backends/llamacpp/llama-wasm';
import { countGpuBuffers, installNodeGpu } from './node-gpu';
import { wllamaAnswer, type WllamaAnswer } from './wllama-node';

const dir = resolve(process.argv[2] ?? '.');
const env = process.env;
const MODELS = (env.NODE_ENGINE_MODELS ?? 'inpage-test,small-q4_0,inpage-test-vision').split(',').filter(Boolean);
const ENGINES = (env.NODE_ENGINE_ENGINES ?? 'simd,webgpu').split(',').filter(Boolean);
const TOKENS = Number(env.NODE_ENGINE_TOKENS ?? 32);
const PROMPT_TOKENS = Number(env.NODE_ENGINE_PROMPT ?? 128);
/** How far a GPU engine's logprobs may be from the CPU's (f16 and sums in another order). */
const LOGPROB_TOLERANCE = Number(env.NODE_ENGINE_TOLERANCE ?? 0.05);
/** Candidates each position reports: enough to find the `simd` engine's token among another's. */
const TOP = 8;
const GPU_REQUIRED = env.NODE_ENGINE_GPU_REQUIRED === '1';
const BASELINES = (env.NODE_ENGINE_BASELINES ?? '').split(',').filter(Boolean);

// What a page's worker has and Node lacks: `navigator.gpu` and WebGPU's constants (node-gpu.ts),
// a worker's globals for Emscripten's web loader (it then reads the wasm with fetch), and fetch
// for file: URLs.
const gpu = installNodeGpu(env.NODE_ENGINE_DAWN);
const gpuBuffers = countGpuBuffers(gpu);
Object.assign(globalThis, {
  WorkerGlobalScope: class {},
  self: globalThis,
  location: new URL(pathToFileURL(`${dir}/`)),
});
const networkFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (!url.startsWith('file:')) return networkFetch(input, init);
  const type = url.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
  return new Response(readFileSync(new URL(url)), { headers: { 'content-type': type } });
};

interface Answer {
  engine: string;
  /** The GPU devices the engine's llama.cpp has (0: every layer on the CPU). */
  gpuDevices: number;
  /** The vision pair: whether mtmd put the projector on the GPU. */
  projectorOnGpu?: boolean;
  loadMs: number;
  prefillTokS: number;
  decodeTokS: number;
  /** The wasm heap after the answer: the host memory the engine holds (weights on the GPU need no copy there). */
  heapBytes: number;
  /** The bytes of the GPU buffers the engine created (node-gpu.ts's countGpuBuffers). */
  gpuBufferBytes: number;
  tokens: number[];
  logprobs: number[];
  candidates: RawCandidate[][];
  /** A text model's prompt as text (its tokens' pieces), for a baseline that takes no ids. */
  promptText?: string;
}

const SENTENCE = 'The quick brown fox jumps over the lazy dog. ';
/** The vision pair's projectors by model name (the patch kernel's type), and its image (the image tests' picture). */
const VISION: Record<string, 'f16' | 'f32'> = { 'inpage-test-vision': 'f16', 'inpage-test-vision-f32': 'f32' };
const IMAGE = new Uint8Array(gradientPng());
/** `inpage-test` with both test adapters (test/fixtures/inpage-test-lora.ts): the output layer's and the first block's. */
const LORA = 'inpage-test-lora';

function model(name: string): Blob {
  if (name === 'inpage-test' || name === LORA) return new Blob([buildInpageTestModel()]);
  if (VISION[name]) return new Blob([buildInpageTestVisionModel()]);
  const [shape, type] = name.split('-') as [BenchShapeName, GgmlType];
  return new Blob([...ggufParts(benchModelSpec(shape, type))]);
}

/**
 * `engine`'s greedy answer to a prompt of PROMPT_TOKENS tokens on `blob` (the vision pair: an
 * image, then the sentence), every layer on the GPU where it has one; with `follow`, that
 * answer's tokens pushed in place of its own.
 */
async function answer(engine: string, name: string, blob: Blob, follow?: readonly number[]): Promise<Answer> {
  const [file = engine, layers] = engine.split('@');
  const url = (ext: string) => pathToFileURL(join(dir, `llama-engine-${file}.${ext}`)).href;
  const started = performance.now();
  gpuBuffers.take();
  const llama = await LlamaWasm.start({
    wasm: url('wasm'),
    loader: file === 'simd' ? null : url('mjs'),
    pthreads: false,
  });
  try {
    await llama.load(
      [{ name: 'model.gguf', blob }],
      2048,
      { prefill: 1, decode: 1 },
      512,
      1,
      file === 'simd' ? 0 : Number(layers ?? 999),
    );
    const loadMs = performance.now() - started;
    const { gpuDevices } = llama.info();
    // The same prompt for every engine: the byte vocabulary's tokens of a repeated sentence (the
    // vision pair: the image, then the sentence once).
    const patchType = VISION[name];
    const projector = patchType
      ? await llama.loadProjector(
          { name: 'mmproj.gguf', blob: new Blob([buildInpageTestVisionProjector(patchType)]) },
          '<__media__>',
          file !== 'simd',
        )
      : null;
    if (name === LORA) {
      await llama.loadLora({ name: 'back.gguf', blob: new Blob([buildInpageTestLoraBack()]) });
      await llama.loadLora({ name: 'attn.gguf', blob: new Blob([buildInpageTestLoraAttn()]) });
      await llama.exclusive(() => llama.loraScales([1, 0.5]));
    }
    const prompt = projector
      ? { text: `<__media__>${SENTENCE}`, media: [IMAGE] }
      : llama.tokenize(SENTENCE.repeat(64), true, false).slice(0, PROMPT_TOKENS);
    const promptText = Array.isArray(prompt)
      ? new TextDecoder().decode(new Uint8Array(prompt.flatMap((id) => llama.piece(id, false))))
      : undefined;
    const { tokens, logprobs, candidates, promptTokens, prefillMs, decodeMs } = await greedyAnswer(
      llama,
      prompt,
      TOKENS,
      { prefillChunk: 512, top: TOP, ...(follow ? { follow } : {}) },
    );
    return {
      engine,
      gpuDevices,
      ...(projector ? { projectorOnGpu: projector.onGpu } : {}),
      loadMs: Math.round(loadMs),
      prefillTokS: Math.round((promptTokens / prefillMs) * 1000 * 10) / 10,
      decodeTokS: Math.round(((tokens.length - 1) / decodeMs) * 1000 * 10) / 10,
      heapBytes: llama.heapBytes(),
      gpuBufferBytes: gpuBuffers.take(),
      tokens,
      logprobs,
      candidates,
      ...(promptText === undefined ? {} : { promptText }),
    };
  } finally {
    llama.dispose();
  }
}

/**
 * How `probe`, which followed `reference`'s tokens, agrees with it: the largest gap between their
 * logprobs of the reference's token (Infinity where it is not among the probe's candidates), and
 * the positions where the probe's argmax differs, each with the reference's margin there (its
 * token's logprob less the runner-up's).
 */
function agreement(reference: Answer, probe: Answer) {
  let logprobGap = 0;
  const flips: { at: number; margin: number }[] = [];
  reference.tokens.forEach((token, at) => {
    const logprob = probe.candidates[at]?.find((candidate) => candidate.id === token)?.logprob ?? -Infinity;
    logprobGap = Math.max(logprobGap, Math.abs(logprob - (reference.logprobs[at] ?? 0)));
    if (probe.tokens[at] !== token)
      flips.push({ at, margin: (reference.logprobs[at] ?? 0) - (reference.candidates[at]?.[1]?.logprob ?? -Infinity) });
  });
  return { sameTokens: flips.length === 0, flips, logprobGap };
}

/**
 * A baseline's answer (`wllama` or `wllama@N`) to the `simd` engine's prompt, compared free-running:
 * whether its tokens are the `simd` engine's, and the largest logprob gap over the tokens before
 * the first that differs.
 */
async function baseline(spec: string, blob: Blob, reference: Answer) {
  const [, layers] = spec.split('@');
  const wasm = pathToFileURL(join(dir, 'wllama.wasm')).href;
  const navigator = { gpu, userAgent: 'Node', hardwareConcurrency: 1 };
  const own: WllamaAnswer = await wllamaAnswer(
    wasm,
    blob,
    reference.promptText ?? '',
    TOKENS,
    Number(layers ?? 999),
    navigator,
  );
  let common = 0;
  while (common < own.tokens.length && own.tokens[common] === reference.tokens[common]) common++;
  const gaps = own.logprobs.slice(0, common).map((logprob, i) => Math.abs(logprob - (reference.logprobs[i] ?? 0)));
  return {
    ...own,
    sameTokens: common === reference.tokens.length,
    commonTokens: common,
    logprobGap: Math.max(0, ...gaps),
  };
}

const adapter = await gpu.requestAdapter();
const report: Record<string, unknown> = {
  node: process.version,
  adapter: adapter && {
    vendor: adapter.info.vendor,
    architecture: adapter.info.architecture,
    device: adapter.info.device,
    description: adapter.info.description,
    f16: adapter.features.has('shader-f16'),
  },
  maxStorageBufferBindingSize: adapter?.limits.maxStorageBufferBindingSize,
  settings: {
    tokens: TOKENS,
    promptTokens: PROMPT_TOKENS,
    tolerance: LOGPROB_TOLERANCE,
    engines: ENGINES,
    baselines: BASELINES,
  },
  models: {},
};
const failures: string[] = [];
/** Writes the report so far: a run the device tool stops at its limit still returns every finished model. */
function save(): void {
  report.failures = failures;
  writeFileSync(join(env.OUT ?? dir, 'node-engine.json'), `${JSON.stringify(report, null, 1)}\n`);
}
for (const name of MODELS) {
  const blob = model(name);
  const answers: Record<string, Answer | { error: string }> = {};
  for (const engine of ENGINES) {
    const reference = answers.simd;
    const follow = engine !== 'simd' && reference && !('error' in reference) ? reference.tokens : undefined;
    try {
      answers[engine] = await answer(engine, name, blob, follow);
    } catch (error) {
      answers[engine] = { error: String(error) };
      failures.push(`${name}, ${engine}: ${String(error)}`);
    }
  }
  const reference = answers.simd;
  for (const [engine, probe] of Object.entries(answers)) {
    if (engine === 'simd' || !reference || 'error' in reference || 'error' in probe) continue;
    const { sameTokens, flips, logprobGap } = agreement(reference, probe);
    Object.assign(probe, { sameTokens, flips, logprobGap, decodeVsSimd: probe.decodeTokS / reference.decodeTokS });
    const wide = flips.filter(({ margin }) => !(margin <= 2 * LOGPROB_TOLERANCE));
    if (wide.length > 0 || !(logprobGap <= LOGPROB_TOLERANCE))
      failures.push(
        `${name}, ${engine}: logprob gap ${logprobGap}, other tokens at ${flips.length} positions (${wide.length} not near-ties: ${JSON.stringify(wide)})`,
      );
    if (GPU_REQUIRED && probe.gpuDevices === 0) failures.push(`${name}, ${engine}: no GPU device`);
    if (probe.gpuDevices > 0 && probe.projectorOnGpu === false)
      failures.push(`${name}, ${engine}: the projector ran on the CPU beside a GPU device`);
  }
  const baselines: Record<string, object> = {};
  const textReference = reference && !('error' in reference) && reference.promptText !== undefined ? reference : null;
  if (textReference)
    for (const spec of BASELINES) {
      try {
        const own = await baseline(spec, blob, textReference);
        baselines[spec] = own;
        console.log(
          `${name} ${spec}: load ${own.loadMs} ms, prefill ${own.prefillTokS} tok/s, decode ${own.decodeTokS} tok/s`,
        );
      } catch (error) {
        baselines[spec] = { error: String(error) };
        console.log(`${name} ${spec}: ${String(error)}`);
      }
    }
  (report.models as Record<string, unknown>)[name] = { bytes: blob.size, answers, baselines };
  for (const [engine, probe] of Object.entries(answers))
    console.log(
      'error' in probe
        ? `${name} ${engine}: ${probe.error}`
        : `${name} ${engine}: ${probe.gpuDevices} GPU devices, load ${probe.loadMs} ms, prefill ${probe.prefillTokS} tok/s, decode ${probe.decodeTokS} tok/s`,
    );
  save();
}
report.complete = true;
save();
console.log(failures.length > 0 ? `FAILED:\n${failures.join('\n')}` : 'node-engine: passed');
process.exit(failures.length > 0 ? 1 : 0);
