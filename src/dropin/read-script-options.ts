import type { InpageOptions } from '../browser/start-inpage';
import { resolveModel } from '../browser/resolve-model';
import type { BackendName } from '../core/model-card';

/** The `data-*` attributes the drop-in script reads (as `dataset` keys). */
export interface ScriptAttributes {
  model?: string | undefined;
  backend?: string | undefined;
  apiKey?: string | undefined;
  routePrefix?: string | undefined;
  sw?: string | undefined;
  scope?: string | undefined;
}

/** What the drop-in starts with, and what it must report with `console.error`. */
export interface ScriptOptions {
  /** Null when nothing can start (the model cannot be resolved). */
  options: InpageOptions | null;
  errors: string[];
}

const BACKENDS: readonly BackendName[] = ['llamacpp', 'webllm'];
const ROUTE_PREFIX = '/v1';

/**
 * Turns `<script src=".../inpage-llm.js" data-model=... data-backend=... data-api-key=...
 * data-route-prefix=... data-sw=... data-scope=...>` into runtime options. Values the runtime
 * does not support yet are never dropped silently: each one yields an error message.
 */
export function readScriptOptions(attributes: ScriptAttributes, scriptUrl: string): ScriptOptions {
  const errors: string[] = [];
  const backend = attributes.backend?.trim();
  if (backend && !isBackend(backend)) errors.push(`data-backend="${backend}" is not a backend: use one of ${BACKENDS.join(', ')}. Using the model's default.`);
  const prefix = attributes.routePrefix?.trim().replace(/\/+$/, '');
  if (prefix && prefix !== ROUTE_PREFIX) errors.push(`data-route-prefix="${prefix}" is not supported yet: the Service Worker answers under ${ROUTE_PREFIX} only. Using ${ROUTE_PREFIX}.`);
  const model = attributes.model?.trim() || undefined;
  let spec;
  try {
    spec = resolveModel(model ?? 'inpage-test', scriptUrl);
  } catch (error) {
    errors.push(`data-model: ${error instanceof Error ? error.message : String(error)}`);
    return { options: null, errors };
  }
  const options: InpageOptions = {
    model: backend && isBackend(backend) ? { ...spec, backend } : spec,
    // Beside the script by default: `npx inpage-llm init <publicDir> --dropin` copies both there.
    serviceWorkerUrl: new URL(attributes.sw?.trim() || 'sw.js', scriptUrl).href,
  };
  if (attributes.scope?.trim()) options.scope = attributes.scope.trim();
  if (attributes.apiKey?.trim()) options.apiKey = attributes.apiKey.trim();
  return { options, errors };
}

function isBackend(value: string): value is BackendName {
  return BACKENDS.some((name) => name === value);
}
