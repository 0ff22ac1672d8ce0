/**
 * `GET /props` beside the route prefix, as llama.cpp's server answers it, for the model named
 * in `?model=` or the first one ready: `default_generation_settings` (`params`: what a request
 * that sets nothing runs with here, the parameter table's defaults; `n_ctx`: the model's
 * context), `total_slots` (the model's slots: how many of its requests run at once), `model_path` and
 * `model_alias` (the model's id), `model_ftype` (its quantization, llamacpp), `modalities` (text only), `chat_template`,
 * `chat_template_caps` (what the template renders, probed in the engine: chat/template-caps.ts;
 * absent on webllm, which has no template here), `bos_token`,
 * `eos_token` (from the engine: the `props` job), `build_info`, and the endpoint flags; beyond
 * llama-server's fields, `kv_cache_type` (`f32` or `f16`, null on webllm: native/attention.cpp).
 * Setting props (llama-server's `POST /props`, off there by default) is a 405.
 */
import { BUILD_STAMP } from '#core/protocol/build-stamp';
import { prefixParent } from '#core/domain/route-prefix';
import { LLAMA_SERVER_DIALECT } from '../../dialect/llama-server-dialect';
import { routeToEngine } from '../../engine-for';
import { openJob } from '../../open-job';
import type { Route } from '../../route';
import { defaultGenerationSettings } from './generation-settings';
import { readyModel, servedCards } from './ready-card';

const JSON_HEADERS = { 'content-type': 'application/json' };

export function propsRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'GET',
    dialect: LLAMA_SERVER_DIALECT,
    path: `${prefixParent(prefix)}/props`,
    async handle(event) {
      const named = new URL(event.request.url).searchParams.get('model');
      const routed = await routeToEngine(clients, event, {
        dialect: LLAMA_SERVER_DIALECT,
        validate: async () => ({ model: await readyModel(clients, event.clientId, named) }),
        toRequest: (body) => body,
        check: () => undefined,
      });
      const { channel, first } = await openJob.props(routed, routed.generation, event.request.signal);
      channel.close();
      const { model } = routed.body;
      const card = (await servedCards(clients, event.clientId)).find((candidate) => candidate.id === model);
      const props = {
        default_generation_settings: {
          params: defaultGenerationSettings(),
          n_ctx: card?.context_length ?? card?.capabilities?.context_length ?? 0,
        },
        total_slots: Math.max(1, card?.slots ?? 1),
        model_alias: model,
        // The GGUF's quantization as llama.cpp names it (the card's `meta`; not on webllm).
        ...(card?.meta ? { model_ftype: card.meta.ftype } : {}),
        model_path: model,
        modalities: {
          vision: card?.modalities?.vision ?? false,
          video: false,
          audio: card?.modalities?.audio ?? false,
        },
        ...(first.media_marker === null ? {} : { media_marker: first.media_marker }),
        endpoint_slots: true,
        endpoint_props: false,
        endpoint_metrics: true,
        chat_template: first.chat_template,
        ...(first.chat_template_caps ? { chat_template_caps: first.chat_template_caps } : {}),
        bos_token: first.bos_token,
        eos_token: first.eos_token,
        kv_cache_type: first.kv_cache_type,
        build_info: `inpage-llm ${BUILD_STAMP.version}`,
        is_sleeping: false,
      };
      return new Response(JSON.stringify(props), { headers: JSON_HEADERS });
    },
  };
}
