/**
 * A route that counts a conversation's prompt tokens (Anthropic's `count_tokens`, OpenAI's
 * `responses/input_tokens`, llama-server's `chat/completions/input_tokens`): a generation of 0
 * tokens, so the engine renders the conversation with the model's template (tools included, the
 * generation prompt added), counts its tokens and ends; no new job kind. Media parts are read as a
 * generation reads them, and count as the projector counts them.
 */
import type { ChatRequest } from './conversation/chat-types';
import { chatGenerationRequest } from './conversation/chat-generation-request';
import { withMediaBytes } from './conversation/chat-media';
import type { Dialect } from './dialect/dialect';
import { generationRoute, type RouteFactory } from './generation-route';

const NEVER_STREAMED = {
  frames: () => [],
  done: () => [],
};

export interface CountTokensDefinition {
  /** The path under the route prefix. */
  path: string;
  dialect: Dialect;
  /** Validates a parsed JSON body into the conversation it counts (a 400 in the dialect's shape). */
  parse(body: unknown): ChatRequest;
  /** The answer's body for `tokens` prompt tokens. */
  answer(tokens: number): unknown;
}

export function countTokensRoute({ path, dialect, parse, answer }: CountTokensDefinition): RouteFactory {
  return generationRoute({
    path,
    dialect,
    parse: (json) => {
      const chat = parse(json);
      return { chat, model: chat.model };
    },
    resolve: async (body, _clients, event) => ({
      ...body,
      chat: await withMediaBytes(body.chat, event.request.signal),
    }),
    generation: (body) => ({ ...chatGenerationRequest(body.chat), max_tokens: 0, grammar: null }),
    streamed: () => false,
    stream: () => NEVER_STREAMED,
    json: () => ({ add: () => undefined, body: (counts) => answer(counts.prompt) }),
  });
}
