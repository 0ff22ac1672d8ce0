/**
 * OpenAI's `POST <prefix>/responses/input_tokens` (the SDK's `responses.inputTokens.count`) and
 * llama-server's `POST <prefix>/chat/completions/input_tokens`: the prompt's token count of a
 * Responses or a chat body, as the engine renders and tokenizes it (count-tokens.ts), answered
 * `{object: 'response.input_tokens', input_tokens}` as both answer it. The body is checked as the
 * generating route checks it (its 400s), so a count is of the prompt that route would read.
 */
import { OPENAI_DIALECT } from '../../dialect/openai-dialect';
import { countTokensRoute } from '../../count-tokens';
import { validateChat } from '../../conversation/validate-chat';
import { validateResponses } from '../responses/validate-responses';

const answer = (tokens: number) => ({ object: 'response.input_tokens', input_tokens: tokens });

export const responsesInputTokensRoute = countTokensRoute({
  path: '/responses/input_tokens',
  dialect: OPENAI_DIALECT,
  parse: (json) => validateResponses(json).chat,
  answer,
});

export const chatInputTokensRoute = countTokensRoute({
  path: '/chat/completions/input_tokens',
  dialect: OPENAI_DIALECT,
  parse: validateChat,
  answer,
});
