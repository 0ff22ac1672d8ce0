/** A state the playground shows in a banner, with what it can offer. */
export interface Notice {
  kind: 'no-webgpu' | 'offline' | 'download-failed' | 'quota' | 'busy' | 'no-engine' | 'error' | 'info';
  title: string;
  detail: string;
  /** Offer to switch to the built-in test model. */
  offerTestModel: boolean;
}

/** The code of an OpenAI-shaped error (ours or the SDK's), if any. */
function errorCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const code: unknown = Reflect.get(error, 'code');
  return typeof code === 'string' ? code : null;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Turns a failed model start into the notice to show (`online` is `navigator.onLine`). */
export function describeLoadFailure(error: unknown, model: string, online: boolean): Notice {
  const text = errorText(error);
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'QuotaExceededError' || /quota/i.test(text)) {
    return {
      kind: 'quota',
      title: 'Not enough storage for this model',
      detail: `The browser refused to store '${model}' (quota exceeded). Free some site storage or pick a smaller model. ${text}`,
      offerTestModel: true,
    };
  }
  if (!online) {
    return {
      kind: 'offline',
      title: 'Model download failed: you appear to be offline',
      detail: `'${model}' is not cached in this browser and the network is off. The built-in test model needs no download. ${text}`,
      offerTestModel: true,
    };
  }
  if (errorCode(error) === 'startup_timeout') {
    return { kind: 'error', title: 'The Service Worker did not start', detail: text, offerTestModel: false };
  }
  return { kind: 'download-failed', title: `Model '${model}' failed to load`, detail: text, offerTestModel: true };
}

/** Turns a failed request into the notice to show. */
export function describeRequestFailure(error: unknown): Notice {
  const code = errorCode(error);
  if (code === 'engine_not_loaded') {
    return { kind: 'no-engine', title: 'No engine is running', detail: errorText(error), offerTestModel: true };
  }
  return { kind: 'error', title: 'The request failed', detail: errorText(error), offerTestModel: false };
}

/** Shown while a request waits behind another one in the engine's queue. */
export const BUSY_NOTICE: Notice = {
  kind: 'busy',
  title: 'Engine busy',
  detail:
    'No token yet after a second: the engine is generating for another request (from this page or another tab) and yours is queued behind it, or it is still reading a long prompt. Stop cancels yours.',
  offerTestModel: false,
};

/** Shown when the browser has no WebGPU adapter. */
export const NO_WEBGPU_NOTICE: Notice = {
  kind: 'no-webgpu',
  title: 'No WebGPU in this browser',
  detail:
    'Models run on the CPU backend (llama.cpp compiled to wasm); models that need WebGPU are disabled in the picker.',
  offerTestModel: false,
};
