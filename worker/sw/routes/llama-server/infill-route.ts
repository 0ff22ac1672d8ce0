/**
 * `POST /infill` beside the route prefix, as llama.cpp's server answers it: fill-in-the-middle
 * with `input_prefix`, `input_suffix`, `input_extra` and `prompt`, laid out as llama-server lays
 * them out (worker/engine/backends/llamacpp/fim-prompt.ts), streamed or not, in llama-server's
 * completion shape. `model` is optional (the model loaded here). A model without FIM tokens,
 * or on the webllm backend, is a 400 naming `/infill` (llama-server: a 501).
 */
import { pickParameters } from '#core/domain/parameters';
import { InvalidRequestError } from '#core/domain/errors';
import { LLAMA_SERVER_DIALECT } from '../../dialect/llama-server-dialect';
import { generationRoute } from '../../generation-route';
import { withDefaultModel } from './default-model';
import { infillJson, infillStream } from './infill-format';
import { validateInfill } from './validate-infill';

export const infillRoute = generationRoute({
  path: '/infill',
  dialect: LLAMA_SERVER_DIALECT,
  outsidePrefix: true,
  complete: withDefaultModel,
  parse: validateInfill,
  generation: (body) => ({
    ...pickParameters(body),
    model: body.model,
    prompts: [body.input_prefix],
    max_tokens: body.max_tokens,
    stop: body.stop,
    n: 1,
    best_of: 1,
    // Each token's id (llama-server streams them, and `return_tokens` returns them).
    logprobs: 0,
    echo: false,
    suffix: body.input_suffix,
    infill: { extra: body.input_extra, prompt: body.prompt },
    grammar: body.grammar,
    speculative: null,
    lora: body.lora,
    id_slot: body.id_slot,
    cache_prompt: body.cache_prompt,
    // Running counts for each streamed frame's `tokens_predicted`.
    continuous_usage: body.stream,
  }),
  check: (capabilities) => {
    if (capabilities.unsupported.includes('suffix'))
      throw new InvalidRequestError(
        '/infill is not supported by this model: it needs fill-in-the-middle tokens (prefix, suffix, middle) and the llamacpp backend.',
        'input_suffix',
        'unsupported_parameter',
      );
  },
  streamed: (body) => body.stream,
  stream: infillStream,
  json: infillJson,
});
