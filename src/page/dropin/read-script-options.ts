import type { BackendChoice } from '../resolve-backend';
import type { InpageOptions } from '../start-inpage';
import { DEFAULT_ROUTE_PREFIX, normalizeRoutePrefix } from '../../core/domain/route-prefix';
import { readIsolation } from '../../core/domain/isolation';
import { parseThreads } from '../../core/domain/threads';
import { parseSlots } from '../../core/domain/slot-count';
import { parseGpuLayers } from '../../core/domain/accelerator';
import { readReasoningBudgetOption } from '../../core/domain/reasoning-budget';

/** The `data-*` attributes the drop-in script reads (as `dataset` keys). */
export interface ScriptAttributes {
  model?: string | undefined;
  backend?: string | undefined;
  fallback?: string | undefined;
  apiKey?: string | undefined;
  routePrefix?: string | undefined;
  sw?: string | undefined;
  scope?: string | undefined;
  routes?: string | undefined;
  isolate?: string | undefined;
  threads?: string | undefined;
  slots?: string | undefined;
  gpuLayers?: string | undefined;
  draftModel?: string | undefined;
  mmproj?: string | undefined;
  lora?: string | undefined;
  alias?: string | undefined;
  persist?: string | undefined;
  promptCache?: string | undefined;
  hfEndpoint?: string | undefined;
  reasoningBudget?: string | undefined;
  reasoningBudgetMessage?: string | undefined;
}

/** What the drop-in starts with, and what it must report with `console.error`. */
export interface ScriptOptions {
  /** A model that cannot be resolved is not an error here: `startInpage` rejects `ready` with why. */
  options: InpageOptions;
  errors: string[];
}

const BACKENDS: readonly BackendChoice[] = ['llamacpp', 'webllm', 'auto'];

/** GGUF URLs are relative to the script (where `init --dropin` put the files), not the page. */
const fromScript = (model: string, scriptUrl: string) =>
  /\.gguf(?:[?#].*)?$/.test(model) ? new URL(model, scriptUrl).href : model;

/**
 * Turns `<script src=".../inpage-llm.js" data-model=... data-backend=... data-fallback=...
 * data-api-key=... data-route-prefix=... data-sw=... data-scope=... data-routes=... data-isolate=...
 * data-threads=... data-slots=... data-gpu-layers=... data-draft-model=... data-persist>` into runtime options (`data-routes`: the URL of a route table's
 * JSON, relative to the page; `data-isolate`: `credentialless` or `require-corp`; `data-threads`:
 * `N`, or `P/D` for prompts and decoding; `data-draft-model`: a draft model for speculative
 * decoding, named as `data-model` is; `data-lora`: LoRA adapters, named so, separated by spaces,
 * each at scale 1; `data-alias`: more names for the model, separated by spaces; `data-persist`: present, `true` or `1` asks for
 * persistent storage, `false` or `0` does not; `data-hf-endpoint`: where `hf:` ids are resolved;
 * `data-prompt-cache`: `false` or `0` turns the prompt cache across page loads off, a number
 * of MiB bounds it; `data-reasoning-budget`: the reasoning budget of chat requests that set none,
 * with `data-reasoning-budget-message`).
 * Values the runtime does not support are never dropped silently: each one yields an error.
 */
export function readScriptOptions(attributes: ScriptAttributes, scriptUrl: string): ScriptOptions {
  const errors: string[] = [];
  const requested = attributes.backend?.trim();
  const backend = BACKENDS.find((name) => name === requested);
  if (requested && !backend)
    errors.push(
      `data-backend="${requested}" is not a backend: use one of ${BACKENDS.join(', ')}. Choosing one from data-model.`,
    );
  let routePrefix: string | undefined;
  try {
    if (attributes.routePrefix?.trim()) routePrefix = normalizeRoutePrefix(attributes.routePrefix);
  } catch (error) {
    errors.push(
      `data-route-prefix: ${error instanceof Error ? error.message : String(error)} Using ${DEFAULT_ROUTE_PREFIX}.`,
    );
  }
  const model = fromScript(attributes.model?.trim() || 'inpage-test', scriptUrl);
  const fallback = attributes.fallback?.trim();
  const fallbackModel = fallback ? fromScript(fallback, scriptUrl) : undefined;
  const options: InpageOptions = {
    model,
    // Beside the script by default: `npx inpage-llm init <publicDir> --dropin` copies both there.
    serviceWorkerUrl: new URL(attributes.sw?.trim() || 'sw.js', scriptUrl).href,
  };
  if (backend) options.backend = backend;
  if (fallbackModel) options.fallbackModel = fallbackModel;
  if (attributes.scope?.trim()) options.scope = attributes.scope.trim();
  if (attributes.apiKey?.trim()) options.apiKey = attributes.apiKey.trim();
  if (routePrefix && routePrefix !== DEFAULT_ROUTE_PREFIX) options.routePrefix = routePrefix;
  if (attributes.routes?.trim()) options.routes = attributes.routes.trim();
  const isolate = attributes.isolate?.trim();
  if (isolate) {
    try {
      options.isolate = readIsolation(isolate, 'data-isolate');
    } catch (error) {
      errors.push(`${error instanceof Error ? error.message : String(error)} The page is not isolated.`);
    }
  }
  const threads = attributes.threads?.trim();
  if (threads) {
    try {
      options.threads = parseThreads(threads, 'data-threads');
    } catch (error) {
      errors.push(`${error instanceof Error ? error.message : String(error)} Using the default threads.`);
    }
  }
  const slots = attributes.slots?.trim();
  if (slots) {
    try {
      options.slots = parseSlots(slots, 'data-slots');
    } catch (error) {
      errors.push(`${error instanceof Error ? error.message : String(error)} Using one slot.`);
    }
  }
  const gpuLayers = attributes.gpuLayers?.trim();
  if (gpuLayers) {
    try {
      options.gpuLayers = parseGpuLayers(gpuLayers, 'data-gpu-layers');
    } catch (error) {
      errors.push(`${error instanceof Error ? error.message : String(error)} Using all layers.`);
    }
  }
  const draftModel = attributes.draftModel?.trim();
  if (draftModel) options.draftModel = fromScript(draftModel, scriptUrl);
  const mmproj = attributes.mmproj?.trim();
  if (mmproj) options.mmproj = fromScript(mmproj, scriptUrl);
  const lora = attributes.lora?.trim();
  if (lora) options.lora = lora.split(/\s+/).map((adapter) => fromScript(adapter, scriptUrl));
  const alias = attributes.alias?.trim();
  if (alias) options.alias = alias.split(/\s+/);
  const persist = attributes.persist?.trim().toLowerCase();
  if (persist !== undefined) {
    if (persist === '' || persist === 'true' || persist === '1') options.persist = true;
    else if (persist !== 'false' && persist !== '0')
      errors.push(`data-persist="${attributes.persist}" is not true or false: not asking for persistent storage.`);
  }
  const promptCache = attributes.promptCache?.trim().toLowerCase();
  if (promptCache === 'false' || promptCache === '0') options.promptCache = false;
  else if (promptCache && promptCache !== 'true') {
    const maxMiB = Number(promptCache);
    if (Number.isFinite(maxMiB) && maxMiB > 0) options.promptCache = { maxMiB };
    else
      errors.push(
        `data-prompt-cache="${attributes.promptCache}" is not true, false or a number of MiB: keeping the default prompt cache.`,
      );
  }
  const budget = attributes.reasoningBudget?.trim();
  if (budget) {
    try {
      options.reasoningBudget = readReasoningBudgetOption(
        { tokens: /^-?\d+$/.test(budget) ? Number(budget) : budget, message: attributes.reasoningBudgetMessage ?? '' },
        'data-reasoning-budget',
      );
    } catch (error) {
      errors.push(`${error instanceof Error ? error.message : String(error)} Using no reasoning budget.`);
    }
  }
  const hfEndpoint = attributes.hfEndpoint?.trim();
  if (hfEndpoint) {
    if (URL.canParse(hfEndpoint, scriptUrl)) options.hfEndpoint = new URL(hfEndpoint, scriptUrl).href;
    else errors.push(`data-hf-endpoint="${hfEndpoint}" is not a URL: using https://huggingface.co/.`);
  }
  return { options, errors };
}
