/**
 * Runs a `props` job (llama-server's `/props`): what only the loaded model knows, its chat
 * template's source, what it can render (`chat_template_caps`), the texts of its BOS and EOS tokens (empty strings for a model without
 * a template, whose backend renders conversations itself), and its KV cache's type. One result,
 * unless aborted meanwhile.
 */
import { message, type EngineToSwTokens } from '#core/protocol/protocol';
import type { PropsRequest } from '#core/domain/tokenize';
import type { LoadedModel } from './backend';
import { templateCaps } from './chat/template-caps';

export function runProps(
  model: LoadedModel,
  _request: PropsRequest,
  port: MessagePort,
  signal: AbortSignal,
): Promise<{ prompt: number; completion: number }> {
  const template = model.chatTemplate;
  const result = {
    chat_template: template?.source ?? '',
    chat_template_caps: template ? templateCaps(template.source, template) : null,
    bos_token: template?.bos_token ?? '',
    eos_token: template?.eos_token ?? '',
    kv_cache_type: model.kvCacheType ?? null,
    media_marker: model.mediaMarker ?? null,
  };
  if (!signal.aborted) port.postMessage(message<EngineToSwTokens, 'props.result'>('props.result', result));
  return Promise.resolve({ prompt: 0, completion: 0 });
}
