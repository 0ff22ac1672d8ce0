/**
 * `/completion`'s prompts as the engine takes them, resolved on the engine that will run the
 * request: a mixed prompt (`["ab", 99]`) becomes ids, each string tokenized in place as
 * llama-server does (BOS/EOS as the model asks only for a string that comes first, control-token
 * text parsed); a prompt of ids gets its text (the answer's `prompt`) from the detokenizer. A
 * string prompt needs neither, so it costs no job.
 */
import { InvalidRequestError } from '#core/domain/errors';
import type { RequestPrompt } from '#core/domain/generation';
import { pickEngineClient, engineClients } from '../../engine-clients';
import { awaitSuccessor } from '../../handover';
import { openJob, type JobRoute } from '../../open-job';
import type { RouteEvent } from '../../route';
import { engineReadableImage } from '../../conversation/browser-image';
import type { NativePrompt } from './native-prompt';
import type { NativeCompletionBody } from './validate-native-completion';

async function tokenize(route: JobRoute, model: string, content: string, first: boolean, signal: AbortSignal) {
  const request = { model, content, add_special: first, parse_special: true };
  const { channel, first: result } = await openJob.tokenize(route, request, signal);
  channel.close();
  return result.tokens;
}

async function detokenize(route: JobRoute, model: string, tokens: number[], signal: AbortSignal) {
  const { channel, first } = await openJob.detokenize(route, { model, tokens }, signal);
  channel.close();
  return first.content;
}

/** `prompt`'s media with each WebP or AVIF image read by the browser (browser-image.ts). */
async function readableMedia(prompt: NativePrompt): Promise<NativePrompt> {
  if (typeof prompt === 'string' || Array.isArray(prompt)) return prompt;
  const items = [];
  for (const item of prompt.media.items)
    items.push({ ...item, bytes: await engineReadableImage(item.bytes, item.param) });
  return { ...prompt, media: { ...prompt.media, items } };
}

/**
 * `body` with every prompt as a string or ids (`inputs`) and its text (`texts`), and the images
 * of its `multimodal_data` as the engine reads them.
 */
export async function resolvePrompts(
  given: NativeCompletionBody,
  clients: Clients,
  event: RouteEvent,
): Promise<NativeCompletionBody> {
  const prompts: NativePrompt[] = [];
  for (const prompt of given.prompts) prompts.push(await readableMedia(prompt));
  const body = {
    ...given,
    prompts,
    inputs: given.inputs.map((input, i): RequestPrompt => {
      const prompt = prompts[i];
      return typeof prompt === 'object' && !Array.isArray(prompt) ? prompt : input;
    }),
  };
  if (!body.prompts.some((prompt) => Array.isArray(prompt))) return body;
  const signal = event.request.signal;
  const { engine, card } = pickEngineClient(await engineClients(clients, event.clientId), body.model);
  const route: JobRoute = {
    client: engine.client,
    loading: card.status === 'loading',
    successor: async (deadline) => (await awaitSuccessor(clients, body.model, signal, deadline))?.client ?? null,
  };
  const inputs: RequestPrompt[] = [];
  const texts: string[] = [];
  for (const prompt of body.prompts) {
    if (!Array.isArray(prompt)) {
      inputs.push(prompt);
      texts.push(typeof prompt === 'string' ? prompt : prompt.text);
      continue;
    }
    const ids: number[] = [];
    for (const [i, part] of prompt.entries())
      ids.push(...(typeof part === 'number' ? [part] : await tokenize(route, card.id, part, i === 0, signal)));
    const outside = ids.find((id) => id >= (card.capabilities?.vocab_size ?? Infinity));
    // As llama-server says it; the detokenizer would fail on it.
    if (outside !== undefined)
      throw new InvalidRequestError('Prompt contains invalid tokens', 'prompt', 'invalid_token_id');
    inputs.push(ids);
    texts.push(await detokenize(route, card.id, ids, signal));
  }
  return { ...body, inputs, texts };
}
