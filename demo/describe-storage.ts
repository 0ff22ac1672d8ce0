/** The "Stored models" panel's words: sizes, states and the usage line, as plain text. */
import type { StoredModelInfo, StoredModelsUsage } from '../src/index';
import { formatBytes } from './catalogue';

/** `5.9 MB`, or `1.2 MB of 5.9 MB` for a partial download whose size is known. */
export function describeSize(model: StoredModelInfo): string {
  if (model.complete || model.totalBytes === null || model.totalBytes === model.bytes) return formatBytes(model.bytes);
  return `${formatBytes(model.bytes)} of ${formatBytes(model.totalBytes)}`;
}

/** `complete`, or `partial` (a download that stopped; the next load of the model resumes it). */
export function describeState(model: StoredModelInfo): string {
  return model.complete ? 'complete' : 'partial';
}

/** When it was last used, in the reader's locale; empty when not known. */
export function describeLastUsed(model: StoredModelInfo): string {
  return model.lastUsed > 0 ? new Date(model.lastUsed).toLocaleString() : '';
}

/** `5.9 MB in 1 model · 9.4 MB of 1.2 GB used by this origin · not persistent (may be evicted)`. */
export function describeUsage(usage: StoredModelsUsage): string {
  const models = `${formatBytes(usage.bytes)} in ${usage.models} ${usage.models === 1 ? 'model' : 'models'}`;
  const { usage: used, quota } = usage.estimate;
  const origin =
    used !== undefined && quota !== undefined
      ? ` · ${formatBytes(used)} of ${formatBytes(quota)} used by this origin`
      : used !== undefined
        ? ` · ${formatBytes(used)} used by this origin`
        : '';
  return `${models}${origin} · ${usage.persisted ? 'persistent' : 'not persistent (may be evicted)'}`;
}
