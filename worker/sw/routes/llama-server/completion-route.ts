/**
 * `POST /completion` beside the route prefix, and its alias `/completions`, as llama.cpp's
 * server answers them: its native completion request (`prompt` as text, ids or both, several
 * prompts in one request), streamed or not, in llama-server's completion shape
 * (`completion-format.ts`). `model` is optional (the model loaded here); mixed and id prompts
 * are resolved on the engine first (`resolve-prompts.ts`).
 */
import { pickParameters } from '#core/domain/parameters';
import { LLAMA_SERVER_DIALECT } from '../../dialect/llama-server-dialect';
import { generationRoute, type GenerationRouteDefinition } from '../../generation-route';
import { nativeCompletionJson, nativeCompletionStream } from './completion-format';
import { withDefaultModel } from './default-model';
import { resolvePrompts } from './resolve-prompts';
import { validateNativeCompletion, type NativeCompletionBody } from './validate-native-completion';

const definition: GenerationRouteDefinition<NativeCompletionBody> = {
  path: '/completion',
  dialect: LLAMA_SERVER_DIALECT,
  outsidePrefix: true,
  complete: withDefaultModel,
  parse: validateNativeCompletion,
  resolve: resolvePrompts,
  generation: (body) => ({
    ...pickParameters(body),
    model: body.model,
    prompts: body.inputs,
    max_tokens: body.max_tokens,
    stop: body.stop,
    n: 1,
    best_of: 1,
    // Each token's id (llama-server streams them, and `return_tokens` returns them), with `n_probs` candidates.
    logprobs: body.n_probs,
    echo: false,
    suffix: null,
    grammar: body.grammar,
    cache_prompt: body.cache_prompt,
    speculative: body.speculative,
    lora: body.lora,
    id_slot: body.id_slot,
    // Running counts: each prompt's own counts are told apart by them.
    continuous_usage: true,
  }),
  streamed: (body) => body.stream,
  stream: nativeCompletionStream,
  json: nativeCompletionJson,
};

export const nativeCompletionRoute = generationRoute(definition);

/** llama-server's alias of `/completion`. */
export const nativeCompletionsRoute = generationRoute({ ...definition, path: '/completions' });
