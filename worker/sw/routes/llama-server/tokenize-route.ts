/**
 * `POST /tokenize` and `POST /detokenize`, as llama.cpp's server answers them, beside the route
 * prefix (`/v1` -> `/tokenize`): `{content, add_special (false), parse_special (true),
 * with_pieces (false)}` -> `{tokens: [id...]}`, or with pieces `{tokens: [{id, piece}]}` where a
 * piece is its text, or its bytes when they are not UTF-8 on their own; `{tokens}` ->
 * `{content}`. Unknown keys are ignored, as llama-server ignores them; `model` is optional.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { checkModality } from '#core/domain/capabilities';
import { isRecord } from '#core/util/is-record';
import { typeError } from '../../conversation/validate-chat-tools';
import { LLAMA_SERVER_DIALECT } from '../../dialect/llama-server-dialect';
import { resultRoute } from '../../result-route';
import { CHAT_KEYS, validateChat } from '../../conversation/validate-chat';
import { chatPrompt } from '../../conversation/chat-generation-request';
import { withDefaultModel } from './default-model';

const utf8 = new TextDecoder('utf-8', { fatal: true });

function modelOf(body: { model?: unknown }): string {
  const { model } = body;
  if (typeof model !== 'string' || model === '')
    throw new InvalidRequestError("No model is loaded here: load one, or name it in 'model'.", 'model');
  return model;
}

function flag(body: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const value = body[key];
  if (value == null) return fallback;
  if (typeof value !== 'boolean') throw typeError(key, 'a boolean', value);
  return value;
}

function parseTokenize(json: unknown) {
  if (!isRecord(json)) throw new InvalidRequestError('The request body must be a JSON object.', null, 'invalid_json');
  const { content } = json;
  if (typeof content !== 'string') throw typeError('content', 'a string', content);
  return {
    model: modelOf(json),
    content,
    add_special: flag(json, 'add_special', false),
    parse_special: flag(json, 'parse_special', true),
    with_pieces: flag(json, 'with_pieces', false),
  };
}

function piece(bytes: number[]): string | number[] {
  try {
    return utf8.decode(new Uint8Array(bytes));
  } catch {
    return bytes;
  }
}

export const tokenizeRoute = resultRoute({
  path: '/tokenize',
  dialect: LLAMA_SERVER_DIALECT,
  outsidePrefix: true,
  kind: 'tokenize',
  complete: withDefaultModel,
  parse: parseTokenize,
  job: ({ model, content, add_special, parse_special }) => ({ model, content, add_special, parse_special }),
  check: () => undefined,
  answer: (body, result) => ({
    tokens: body.with_pieces
      ? result.tokens.map((id, i) => ({ id, piece: piece(result.pieces[i] ?? []) }))
      : result.tokens,
  }),
});

function parseDetokenize(json: unknown) {
  if (!isRecord(json)) throw new InvalidRequestError('The request body must be a JSON object.', null, 'invalid_json');
  const tokens = json.tokens ?? [];
  if (!Array.isArray(tokens) || !tokens.every((id): id is number => Number.isInteger(id) && id >= 0))
    throw typeError('tokens', 'an array of token ids', tokens);
  return { model: modelOf(json), tokens };
}

export const detokenizeRoute = resultRoute({
  path: '/detokenize',
  dialect: LLAMA_SERVER_DIALECT,
  outsidePrefix: true,
  kind: 'detokenize',
  complete: withDefaultModel,
  parse: parseDetokenize,
  job: ({ model, tokens }) => ({ model, tokens }),
  check: (capabilities, { tokens }) => {
    const outside = tokens.find((id) => id >= capabilities.vocab_size);
    if (outside !== undefined)
      throw new InvalidRequestError(
        `Token id ${outside} in 'tokens' is outside the vocabulary (size ${capabilities.vocab_size}).`,
        'tokens',
        'invalid_token_id',
      );
  },
  answer: (_body, result) => ({ content: result.content }),
});

/**
 * `POST /apply-template`: a chat body's conversation rendered with the model's template, as
 * llama-server answers it (`{prompt}`): `messages`, `tools`, `chat_template_kwargs`,
 * `reasoning_effort` and the other chat keys validated as chat's, `add_generation_prompt`
 * (default true: false leaves the assistant's header out), a final assistant message continued
 * (`continue_final_message`, as chat's), `model` optional. Keys that are not
 * chat's (`reasoning_format`, `n_predict`, ...) are ignored, as llama-server ignores what it does not read.
 */
export const applyTemplateRoute = resultRoute({
  path: '/apply-template',
  dialect: LLAMA_SERVER_DIALECT,
  outsidePrefix: true,
  kind: 'apply-template',
  complete: withDefaultModel,
  parse: (json) => {
    if (!isRecord(json)) throw new InvalidRequestError('The request body must be a JSON object.', null, 'invalid_json');
    const chatKeys = Object.fromEntries(Object.entries(json).filter(([key]) => CHAT_KEYS.has(key)));
    const chat = validateChat({ ...chatKeys, model: json.model ?? '' });
    return { ...chat, model: modelOf(chat), add_generation_prompt: flag(json, 'add_generation_prompt', true) };
  },
  job: (chat) => ({
    model: chat.model,
    chat: { ...chatPrompt(chat), add_generation_prompt: chat.add_generation_prompt },
    ...(chat.media
      ? { media: { marker: chat.media.marker, parts: chat.media.parts.map(({ kind, param }) => ({ kind, param })) } }
      : {}),
  }),
  check: (capabilities, job) => {
    for (const part of job.media?.parts ?? []) checkModality(capabilities, part);
  },
  answer: (_body, result) => ({ prompt: result.prompt }),
});
