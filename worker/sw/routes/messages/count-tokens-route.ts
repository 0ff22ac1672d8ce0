/**
 * `POST <prefix>/messages/count_tokens`: the prompt's token count (`{input_tokens}`) for a
 * Messages body, as the engine renders and tokenizes it (count-tokens.ts).
 */
import { ANTHROPIC_DIALECT } from '../../dialect/anthropic-dialect';
import { countTokensRoute } from '../../count-tokens';
import { validateMessages } from './validate-messages';

export const messagesCountTokensRoute = countTokensRoute({
  path: '/messages/count_tokens',
  dialect: ANTHROPIC_DIALECT,
  parse: (json) => validateMessages(json, true).chat,
  answer: (tokens) => ({ input_tokens: tokens }),
});
