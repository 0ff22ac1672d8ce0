/**
 * The playground page: starts the runtime on `?model=` (or on the default catalogue model) and
 * exposes it as `window.inpage` / `window.inpageProgress` (the README's contract), also when the
 * model cannot start: its `ready` then rejects with why.
 */
import {
  ISOLATION_MODES,
  parseGpuLayers,
  parseSlots,
  parseThreads,
  startInpage,
  type BackendChoice,
  type GpuLayers,
  type Inpage,
  type ThreadCounts,
} from '../src/index';
import { exposeOnWindow } from '../src/page/dropin/window-globals';
import { CATALOGUE } from './catalogue';
import { builtinEntry, chooseDefaultModel } from './choose-default-model';
import { fallbackNotice, reloadOnBuiltin, takeFallbackNotice } from './default-fallback';
import type { Notice } from './describe-failure';
import { detectWebGpu } from './detect-webgpu';
import './inpage-playground';
import { fetchServedModels } from './served-models';
import { backendOptions, webllmModel } from './webllm-params';

const playground = document.querySelector('inpage-playground');
const params = new URLSearchParams(location.search);
/** `?api_key=`: the runtime then requires it (401 otherwise) and the playground sends it. */
const apiKey = params.get('api_key');
/** `&routes=<URL>`: a route table's JSON (docs/routes.md), beside `?model=`. */
const routes = params.get('routes');
/** `&isolate=credentialless|require-corp`: the SW adds COOP/COEP from the next load on (as `startInpage({ isolate })`). */
const isolate = ISOLATION_MODES.find((mode) => mode === params.get('isolate'));
if (params.has('isolate') && !isolate)
  console.warn(`[playground] &isolate=${params.get('isolate')} is not one of ${ISOLATION_MODES.join(', ')}: ignored.`);
/** `&threads=N` or `&threads=P/D`: the llama.cpp engine's threads (as `startInpage({ threads })`). */
const threads = readThreadsParam(params.get('threads'));
/** `&slots=N`: the llama.cpp engine's slots, requests decoded together (as `startInpage({ slots })`). */
const slots = readSlotsParam(params.get('slots'));
/** `&gpu_layers=N|all`: a GGUF model's layers on the GPU, 0 for the CPU (as `startInpage({ gpuLayers })`). */
const gpuLayers = readGpuLayersParam(params.get('gpu_layers'));
/** `&draft_model=<model>`: a draft model for speculative decoding, named as `?model=` is (as `startInpage({ draftModel })`). */
const draftModel = params.get('draft_model') || undefined;
/** `&mmproj=<URL>`: a multimodal projector for the model (as `startInpage({ mmproj })`); a catalogue model's own otherwise. */
const mmprojParam = params.get('mmproj') || undefined;
/** `&lora=<model>` (once per adapter): LoRA adapters at scale 1, named as `?model=` is (as `startInpage({ lora })`). */
const lora = params.getAll('lora').filter((adapter) => adapter.length > 0);
/** `&alias=<name>` (once per name): more names for the model, as llama-server's `--alias` (as `startInpage({ alias })`). */
const alias = params.getAll('alias').filter((name) => name.length > 0);

/** `&hf_endpoint=<URL>`: where `?model=hf:owner/repo[:QUANT]` is resolved (a Hugging Face mirror). */
const hfEndpoint = params.get('hf_endpoint');
/** `&connections=N`: parallel ranges per download (as `startInpage({ downloads: { connections } })`). */
const connections = params.has('connections') ? Number(params.get('connections')) : undefined;
/** `&prompt_cache=0`: no prompt cache across page loads (as `startInpage({ promptCache: false })`). */
const promptCacheOff = params.get('prompt_cache') === '0' || params.get('prompt_cache') === 'false';
/**
 * `&reasoning_budget=N` (and `&reasoning_budget_message=`): the reasoning budget of chat requests
 * that set none (as `startInpage({ reasoningBudget })`); a bad value makes the start fail with its 400.
 */
const reasoningBudget = params.has('reasoning_budget')
  ? { tokens: Number(params.get('reasoning_budget')), message: params.get('reasoning_budget_message') ?? '' }
  : undefined;
/** `&persist=1`: ask the browser to keep the stored models (as `startInpage({ persist: true })`). */
const persist = params.get('persist') === '1' || params.get('persist') === 'true';

function readThreadsParam(value: string | null): ThreadCounts | undefined {
  if (value === null) return undefined;
  try {
    return parseThreads(value, '&threads');
  } catch (error) {
    console.warn(`[playground] ${error instanceof Error ? error.message : String(error)} Ignored.`);
    return undefined;
  }
}

function readSlotsParam(value: string | null): number | undefined {
  if (value === null) return undefined;
  try {
    return parseSlots(value, '&slots');
  } catch (error) {
    console.warn(`[playground] ${error instanceof Error ? error.message : String(error)} Ignored.`);
    return undefined;
  }
}

function readGpuLayersParam(value: string | null): GpuLayers | undefined {
  if (value === null) return undefined;
  try {
    return parseGpuLayers(value, '&gpu_layers');
  } catch (error) {
    console.warn(`[playground] ${error instanceof Error ? error.message : String(error)} Ignored.`);
    return undefined;
  }
}

function start(
  model: string,
  notice: Notice | undefined,
  backend?: BackendChoice,
  mmproj = mmprojParam,
): Inpage | undefined {
  if (!playground) return undefined;
  playground.startNotice = notice;
  // `?model=<folder>&model_lib=<wasm>` is a self-hosted WebLLM model; `?backend=`, `?fallback=`, `?cache=` as in webllm-params.
  // No `?backend=`: the model's own (a WebLLM catalogue id runs on webllm, anything else on llamacpp).
  const runtime = startInpage({
    model: webllmModel(params) ?? model,
    timeoutMs: 60_000,
    ...(backend ? { backend } : {}),
    ...backendOptions(params),
    ...(apiKey ? { apiKey } : {}),
    ...(routes ? { routes } : {}),
    ...(isolate ? { isolate } : {}),
    ...(threads ? { threads } : {}),
    ...(slots ? { slots } : {}),
    ...(gpuLayers === undefined ? {} : { gpuLayers }),
    ...(draftModel ? { draftModel } : {}),
    ...(mmproj ? { mmproj } : {}),
    ...(lora.length > 0 ? { lora } : {}),
    ...(alias.length > 0 ? { alias } : {}),
    ...(hfEndpoint ? { hfEndpoint } : {}),
    ...(connections === undefined ? {} : { downloads: { connections } }),
    ...(persist ? { persist } : {}),
    ...(promptCacheOff ? { promptCache: false } : {}),
    ...(reasoningBudget ? { reasoningBudget } : {}),
  });
  exposeOnWindow(runtime);
  playground.runtime = runtime;
  if (runtime.backend === 'webllm') learnWebGpu(runtime);
  return runtime;
}

/**
 * Whether this browser has WebGPU, asked only when a choice depends on it (the default model,
 * the picker in use) and not yet known: Chromium logs "No available adapters." for each ask that
 * finds none, so a llama.cpp page logs nothing, and no page more than once.
 */
let webgpuKnown = false;
function showWebGpu(webgpu: boolean): void {
  webgpuKnown = true;
  if (playground) playground.webgpu = webgpu;
}

function askWebGpu(): void {
  if (!webgpuKnown) void detectWebGpu().then(showWebGpu);
}

/** A WebLLM model: the engine worker asks for the adapter, and the page learns its answer from the outcome. */
function learnWebGpu(runtime: Inpage): void {
  const noAdapter = (code: unknown) => code === 'webgpu_unavailable' && showWebGpu(false);
  runtime.ready.then(
    // `auto` fell back to llama.cpp: the WebLLM model's card says why.
    async () => {
      if (runtime.backend !== 'webllm') for (const card of await fetchServedModels()) noAdapter(card.error_code);
    },
    (error: unknown) => noAdapter(typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : null),
  );
}

async function startDefault(): Promise<void> {
  const env = { webgpu: await detectWebGpu(), online: navigator.onLine };
  showWebGpu(env.webgpu);
  const cached = new Set(
    (await Promise.all(CATALOGUE.map(async (entry) => ((await entry.isCached()) ? [entry.id] : [])))).flat(),
  );
  const choice = chooseDefaultModel(CATALOGUE, env, cached);
  if (!choice) return;
  const notice: Notice | undefined = choice.reason
    ? { kind: 'info', title: `Running ${choice.entry.id}`, detail: choice.reason, offerTestModel: false }
    : undefined;
  const runtime = start(choice.entry.source, notice, choice.entry.backend === 'webllm' ? 'auto' : undefined);
  // A real model chosen by default that cannot start: the built-in one instead (default-fallback.ts).
  const builtin = builtinEntry(CATALOGUE);
  if (runtime && !choice.reason && builtin)
    runtime.ready.catch((error: unknown) =>
      reloadOnBuiltin(builtin.source, fallbackNotice(choice.entry.id, builtin.id, error)),
    );
}

// The picker marks the models that need WebGPU: ask once someone uses it.
playground?.addEventListener('focusin', (event) => {
  if (event.composedPath().some((node) => node instanceof Element && node.localName === 'model-picker')) askWebGpu();
});

const requested = params.get('model');
// A playground catalogue id (`inpage-test-qwen3`) stands for its source (the served GGUF), with
// its projector beside it where it has one (`inpage-test-vision`).
const entry = CATALOGUE.find((candidate) => candidate.id === requested);
if (requested) start(entry?.source ?? requested, takeFallbackNotice(), undefined, mmprojParam ?? entry?.mmproj);
else void startDefault();
