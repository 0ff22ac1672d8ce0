/**
 * The playground page: starts the runtime on `?model=` (or on the default catalogue model) and
 * exposes it as `window.inpage` / `window.inpageProgress` (the README's contract).
 */
import { startInpage, type BackendChoice } from '../src/index';
import { exposeOnWindow } from '../src/page/dropin/window-globals';
import { CATALOGUE } from './catalogue';
import { chooseDefaultModel } from './choose-default-model';
import { describeLoadFailure, type Notice } from './describe-failure';
import { detectWebGpu } from './detect-webgpu';
import './inpage-playground';
import { backendOptions, webllmModel } from './webllm-params';

const playground = document.querySelector('inpage-playground');
const params = new URLSearchParams(location.search);
/** `?api_key=`: the runtime then requires it (401 otherwise) and the playground sends it. */
const apiKey = params.get('api_key');

function start(model: string, notice: Notice | undefined, backend?: BackendChoice): void {
  if (!playground) return;
  playground.startNotice = notice;
  try {
    // `?model=<folder>&model_lib=<wasm>` is a self-hosted WebLLM model; `?backend=`, `?fallback=`, `?cache=` as in webllm-params.
    const runtime = startInpage({
      model: webllmModel(params) ?? model,
      timeoutMs: 60_000,
      ...(backend ? { backend } : {}),
      ...backendOptions(params),
      ...(apiKey ? { apiKey } : {}),
    });
    exposeOnWindow(runtime);
    playground.runtime = runtime;
  } catch (error) {
    playground.model = model;
    playground.state = 'failed';
    playground.startNotice = describeLoadFailure(error, model, navigator.onLine);
  }
}

async function startDefault(): Promise<void> {
  const env = { webgpu: await detectWebGpu(), online: navigator.onLine };
  const cached = new Set(
    (await Promise.all(CATALOGUE.map(async (entry) => ((await entry.isCached()) ? [entry.id] : [])))).flat(),
  );
  const choice = chooseDefaultModel(CATALOGUE, env, cached);
  if (!choice) return;
  const notice: Notice | undefined = choice.reason
    ? { kind: 'info', title: `Running ${choice.entry.id}`, detail: choice.reason, offerTestModel: false }
    : undefined;
  start(choice.entry.source, notice, choice.entry.backend === 'webllm' ? 'auto' : undefined);
}

const requested = params.get('model');
if (requested) start(requested, undefined);
else void startDefault();
