/**
 * The page of `npm run test:webgpu-engine` (engine-probe.ts): each engine named in `?engines=`
 * (`simd` and `webgpu`: the committed engines; `jspi-gpu`: scripts/engine/webgpu/build-engine-probe.sh's
 * probe) loads `?model=` through the engine's own `LlamaWasm` (bundled as a test build: every
 * call on the context is checked to run inside a section) and answers the same prompt greedily,
 * `?tokens=` tokens with their logprobs. `window.probeResults` settles with every engine's answer
 * or error, and the JSPI checks below.
 */
import { importLoader, LlamaWasm } from '../../worker/engine/backends/llamacpp/llama-wasm';
import { greedyAnswer } from './greedy-answer';

const query = new URLSearchParams(location.search);
const MODEL = query.get('model') ?? '/model.gguf';
const ENGINES = (query.get('engines') ?? 'simd').split(',');
const TOKENS = Number(query.get('tokens') ?? 16);
const PROMPT = 'Once upon a time';

export interface ProbeAnswer {
  loadMs: number;
  /** The GPU devices the engine's llama.cpp has after the load (`ip_info`). */
  gpuDevices: number;
  answerMs: number;
  tokens: number[];
  logprobs: number[];
}

/**
 * `answer`, with a tokenize of the prompt (a call that never suspends, made outside any section)
 * after each push is called and before its promise settles: on the GPU, while the push's decode
 * is suspended (docs/design/webgpu-engine.md: what runs outside a section). `sameTokenizes`: how
 * many of those tokenizes gave the prompt's ids.
 */
async function answer(
  name: string,
  tokenizeDuringPush = false,
): Promise<ProbeAnswer & { sameTokenizes?: number; suspendedPushes?: number }> {
  const files =
    name === 'simd'
      ? { wasm: '/llama-engine-simd.wasm', loader: null }
      : { wasm: `/llama-engine-${name}.wasm`, loader: `/llama-engine-${name}.mjs` };
  const started = performance.now();
  const engine = await LlamaWasm.start({ ...files, pthreads: false });
  const blob = await (await fetch(MODEL)).blob();
  // Every layer on the GPU where the build has one (llama.cpp's -ngl 999); the CPU build takes 0.
  const gpuLayers = name === 'simd' ? 0 : 999;
  await engine.load([{ name: 'model.gguf', blob }], 512, { prefill: 1, decode: 1 }, 512, 1, gpuLayers);
  const loadMs = performance.now() - started;
  const { gpuDevices } = engine.info();
  const ids = engine.tokenize(PROMPT, true, false);
  const begun = performance.now();
  let sameTokenizes = 0;
  let suspendedPushes = 0;
  // With a tokenize of the prompt while each push may be suspended.
  const duringPush = async (pushed: Promise<boolean>) => {
    if (engine.tokenize(PROMPT, true, false).join() === ids.join()) sameTokenizes += 1;
    // Not settled after 20 microtasks: the decode suspended (it waits for the GPU, in a task); a
    // call that ran to its end settles within a few (measured: the CPU probe's never counted here).
    let settled = false;
    void pushed.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (let tick = 0; tick < 20 && !settled; tick++) await Promise.resolve();
    if (!settled) suspendedPushes += 1;
  };
  const { tokens, logprobs } = await greedyAnswer(engine, ids, TOKENS, {
    prefillChunk: 64,
    ...(tokenizeDuringPush ? { duringPush } : {}),
  });
  engine.dispose();
  const own = { loadMs, gpuDevices, answerMs: performance.now() - begun, tokens, logprobs };
  return tokenizeDuringPush ? { ...own, sameTokenizes, suspendedPushes } : own;
}

/**
 * JSPI's re-entrancy, as docs/design/webgpu-engine.md relies on it: while `ip_load` is pending
 * (a JSPI export: a promise), exports that do not suspend run (an allocation, a write, a read
 * of the glue's error text, a free); the model then loads and tokenizes as it should.
 */
async function reentrancy(name: string) {
  const create = await importLoader(`/llama-engine-${name}.mjs`);
  const m = await create({
    locateFile: () => `/llama-engine-${name}.wasm`,
    print: () => {},
    printErr: () => {},
  });
  m.FS.writeFile('/m.gguf', new Uint8Array(await (await fetch(MODEL)).arrayBuffer()));
  const path = m._malloc(16);
  m.HEAPU8.set(new TextEncoder().encode('/m.gguf\0'), path);
  const pending: unknown = m._ip_load(path, 512, 1, 1, 512, 1, 999);
  const promise = pending instanceof Promise;
  const scratch = m._malloc(1 << 20);
  m.HEAPU8.fill(0xab, scratch, scratch + (1 << 20));
  m.UTF8ToString(m._ip_error());
  m._free(scratch);
  const status = await pending;
  const text = new TextEncoder().encode(PROMPT);
  const at = m._malloc(text.length + 1);
  m.HEAPU8.set(text, at);
  m.HEAPU8[at + text.length] = 0;
  return { promise, status, tokens: m._ip_tokenize(at, text.length, 1, 0) };
}

declare global {
  interface Window {
    probeResults: Promise<Record<string, unknown>>;
  }
}

window.probeResults = (async () => {
  const results: Record<string, unknown> = {};
  for (const name of ENGINES) {
    try {
      results[name] = await answer(name);
    } catch (error) {
      results[name] = { error: String(error) };
    }
  }
  const during = query.get('tokenize-during-push');
  if (during) {
    try {
      results.tokenizeDuringPush = await answer(during, true);
    } catch (error) {
      results.tokenizeDuringPush = { error: String(error) };
    }
  }
  const jspi = query.get('reentrancy');
  if (jspi) {
    try {
      results.reentrancy = await reentrancy(jspi);
    } catch (error) {
      results.reentrancy = { error: String(error) };
    }
  }
  return results;
})();
