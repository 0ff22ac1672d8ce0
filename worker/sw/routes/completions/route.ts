/**
 * `POST <prefix>/completions`: the key is checked first (401, as OpenAI), then the body is
 * validated and checked against the model's capabilities here; only a request the model can
 * serve reaches the engine.
 */
import { validateCompletion } from '#core/openai/validate-completion';
import { OPENAI_DIALECT } from '../../dialect/openai-dialect';
import { generationRoute } from '../../generation-route';
import { completionMeta } from './completion-builder';
import { completionJson, completionStream } from './format';

export const completionsRoute = generationRoute({
  path: '/completions',
  dialect: OPENAI_DIALECT,
  parse: validateCompletion,
  generation: (body) => body,
  streamed: (body) => body.stream,
  stream: (body) => completionStream(completionMeta(body.model), body),
  json: (body) => completionJson(completionMeta(body.model), body),
});
