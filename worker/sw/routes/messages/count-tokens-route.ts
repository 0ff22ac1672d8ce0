/**
 * `POST <prefix>/messages/count_tokens`: the prompt's token count (`{input_tokens}`) for a
 * Messages body, as the engine renders and tokenizes it. It is a generation of 0 tokens: the
 * engine renders the conversation, counts its tokens and ends (no new job kind).
 */
import { ANTHROPIC_DIALECT } from '../../dialect/anthropic-dialect';
import { generationRoute } from '../../generation-route';
import { chatGenerationRequest } from '../../conversation/chat-generation-request';
import { withMediaBytes } from '../../conversation/chat-media';
import { validateMessages } from './validate-messages';

const NEVER_STREAMED = {
  frames: () => [],
  done: () => [],
};

export const countTokensRoute = generationRoute({
  path: '/messages/count_tokens',
  dialect: ANTHROPIC_DIALECT,
  parse: (json) => {
    const body = validateMessages(json, true);
    return { ...body, model: body.chat.model };
  },
  resolve: async (body, _clients, event) => ({ ...body, chat: await withMediaBytes(body.chat, event.request.signal) }),
  generation: (body) => ({ ...chatGenerationRequest(body.chat), max_tokens: 0, grammar: null }),
  streamed: () => false,
  stream: () => NEVER_STREAMED,
  json: () => ({ add: () => undefined, body: (counts) => ({ input_tokens: counts.prompt }) }),
});
