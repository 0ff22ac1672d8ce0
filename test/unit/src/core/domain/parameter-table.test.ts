/**
 * The parameter table drives the endpoints: every row is accepted by completions and chat under
 * its own name, reaches the engine's request with its value, and every sampler a backend does
 * not refuse reaches that backend's own request. A new sampler that is one row short of a
 * mapping line fails here.
 */
import { describe, expect, it } from 'vitest';
import {
  GREEDY,
  PARAMETER_NAMES,
  PARAMETERS,
  SAMPLING,
  type ParameterRow,
  type ParameterRange,
} from '#core/domain/parameters';
import { validateCompletion } from '#core/openai/validate-completion';
import type { BackendName } from '#core/domain/backend-name';
import type { ChoiceRequest } from '../../../../../worker/engine/backend';
import { samplerSpec } from '../../../../../worker/engine/backends/llamacpp/sampler-spec';
import { webllmSampling } from '../../../../../worker/engine/backends/webllm/request';
import { validateChat } from '../../../../../worker/sw/conversation/validate-chat';
import { chatGenerationRequest } from '../../../../../worker/sw/conversation/chat-generation-request';

/** A valid value of a row other than its "off" and its default. */
function activeValue(row: ParameterRow<unknown, ParameterRange>): unknown {
  const { range } = row;
  switch (range.kind) {
    case 'number': {
      // Within [0, 1] where the range allows: a value <= 0 may read as "off" (top_n_sigma).
      // Read as it is (dry_base below 1 reads as its default).
      const low = Math.max(range.min, 0);
      const mid = (low + Math.min(range.max, low + 1)) / 2;
      return row.read && row.read(mid) !== mid ? Math.min(range.max, low + 2) : mid;
    }
    case 'integer':
      return range.max === undefined ? 3 : range.max;
    case 'boolean':
      return row.off !== true;
    case 'logit_bias':
      // llama-server's pair form, which reads as itself.
      return [[1, 2]];
    case 'token_ids':
      return [1];
    case 'strings':
      return ['x'];
    case 'samplers':
      return ['top_k', 'temperature'];
  }
}

const choice: ChoiceRequest = {
  ...GREEDY,
  prompt: 'abc',
  max_tokens: 5,
  min_tokens: 0,
  suffix: null,
  ignore_eos: false,
  token_info: null,
  cache_prompt: true,
  speculative: null,
  lora: [],
  grammar: null,
};

const mappings: Record<BackendName, (request: ChoiceRequest) => unknown> = {
  llamacpp: (request) => samplerSpec(request, () => []),
  webllm: webllmSampling,
};

describe('the parameter table', () => {
  it.each(PARAMETER_NAMES)('%s: completions takes it and the engine request carries it', (name) => {
    const value = activeValue(PARAMETERS[name]);
    const request = validateCompletion({ model: 'm', prompt: 'p', [name]: value });
    expect(request[name]).toEqual(value);
  });

  it.each(PARAMETER_NAMES)('%s: chat takes it and the engine request carries it', (name) => {
    const value = activeValue(PARAMETERS[name]);
    const chat = validateChat({ model: 'm', messages: [{ role: 'user', content: 'hi' }], [name]: value });
    expect(chatGenerationRequest(chat)[name]).toEqual(value);
  });

  it.each(PARAMETER_NAMES)('%s: left out, it is the row default', (name) => {
    expect(validateCompletion({ model: 'm', prompt: 'p' })[name]).toEqual(PARAMETERS[name].default);
  });

  const mapped = (Object.keys(mappings) as BackendName[]).flatMap((backend) =>
    (Object.keys(SAMPLING) as Array<keyof typeof SAMPLING>)
      .filter((name) => !SAMPLING[name].unsupportedOn.includes(backend))
      // mirostat's tau and eta act only with mirostat on, which webllm refuses.
      .filter((name) => backend !== 'webllm' || !name.startsWith('mirostat'))
      .map((name) => [backend, name] as const),
  );

  it.each(mapped)('%s maps %s into its own request', (backend, name) => {
    const map = mappings[backend];
    const active = { ...choice, [name]: activeValue(SAMPLING[name]) };
    expect(map(active)).not.toEqual(map(choice));
  });
});
