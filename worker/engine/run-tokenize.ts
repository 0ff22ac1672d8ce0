/**
 * Runs the tokenizer jobs on a loaded model: `tokenize` posts the ids and each token's bytes
 * (a model whose backend has no tokenizer of its own is a 400 naming `model`), `detokenize`
 * posts the ids' text, `apply-template` the conversation rendered with the model's chat template
 * (the prompt a chat request would run). One result each, unless the job was aborted meanwhile.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { message, type EngineToSwTokens } from '#core/protocol/protocol';
import type { ApplyTemplateRequest, DetokenizeRequest, TokenizeRequest } from '#core/domain/tokenize';
import type { LoadedModel } from './backend';
import { promptText } from './chat/prompt-segments';
import { renderChatSegments } from './chat/render-prompt';

export async function runTokenize(
  model: LoadedModel,
  request: TokenizeRequest,
  port: MessagePort,
  signal: AbortSignal,
): Promise<{ prompt: number; completion: number }> {
  if (!model.tokenize)
    throw new InvalidRequestError(
      `The model '${request.model}' has no tokenizer endpoint on its backend (llamacpp models have one).`,
      'model',
      'unsupported_parameter',
    );
  const result = await model.tokenize(request.content, request.add_special, request.parse_special);
  if (!signal.aborted) port.postMessage(message<EngineToSwTokens, 'tokenize.result'>('tokenize.result', result));
  return { prompt: result.tokens.length, completion: 0 };
}

export async function runDetokenize(
  model: LoadedModel,
  request: DetokenizeRequest,
  port: MessagePort,
  signal: AbortSignal,
): Promise<{ prompt: number; completion: number }> {
  const content = await model.promptText(request.tokens);
  if (!signal.aborted)
    port.postMessage(message<EngineToSwTokens, 'detokenize.result'>('detokenize.result', { content }));
  return { prompt: request.tokens.length, completion: 0 };
}

export function runApplyTemplate(
  model: LoadedModel,
  request: ApplyTemplateRequest,
  port: MessagePort,
  signal: AbortSignal,
): Promise<{ prompt: number; completion: number }> {
  const rendered = promptText(renderChatSegments(model.chatTemplate, request.chat).segments);
  // The model's marker where the request's stood (the SW refused media the model cannot read).
  const { media } = request;
  const prompt = media ? rendered.split(media.marker).join(model.mediaMarker ?? media.marker) : rendered;
  if (!signal.aborted)
    port.postMessage(message<EngineToSwTokens, 'apply-template.result'>('apply-template.result', { prompt }));
  return Promise.resolve({ prompt: 0, completion: 0 });
}
