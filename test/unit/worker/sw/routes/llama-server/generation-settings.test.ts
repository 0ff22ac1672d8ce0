import { describe, expect, it } from 'vitest';
import { DEFAULT_SAMPLER_ORDER } from '../../../../../../src/core/domain/sampler-order';
import { readParameters } from '../../../../../../src/core/openai/read-parameters';
import {
  defaultGenerationSettings,
  generationSettings,
  slotParams,
} from '../../../../../../worker/sw/routes/llama-server/generation-settings';

describe('generationSettings', () => {
  it("names the table's values as llama-server does; -1 for up to the context; llama.cpp's random seed", () => {
    expect(defaultGenerationSettings()).toMatchObject({
      seed: 4294967295,
      temperature: 1,
      top_k: 0,
      top_p: 1,
      repeat_penalty: 1,
      n_predict: -1,
      max_tokens: -1,
      stream: false,
    });
  });

  it("a request's own values", () => {
    const parameters = readParameters({ temperature: 0, seed: 7, repetition_penalty: 1.2, logit_bias: [[5, -1]] });
    const settings = generationSettings({ parameters, max_tokens: 3, stop: ['x'], stream: true, n_probs: 2 });
    expect(settings).toMatchObject({ temperature: 0, seed: 7, repeat_penalty: 1.2, n_predict: 3, stop: ['x'] });
    expect(settings.logit_bias).toEqual([{ bias: -1, token: 5 }]);
    // llama-server's order: ..., stream, logit_bias, n_probs, min_keep, ...
    const keys = Object.keys(settings);
    expect(keys.slice(keys.indexOf('stream'), keys.indexOf('min_keep') + 1)).toEqual([
      'stream',
      'logit_bias',
      'n_probs',
      'min_keep',
    ]);
    expect(settings.n_probs).toBe(2);
    expect(defaultGenerationSettings().n_probs).toBe(0);
  });

  it("llama.cpp's own samplers as llama-server lists them; /slots' params without stop, logit_bias and DRY's breakers", () => {
    const parameters = readParameters({ dry_multiplier: 0.8, xtc_probability: 0.5, samplers: 'kt', min_keep: 2 });
    const settings = generationSettings({ parameters, max_tokens: null, stop: [], stream: false, n_probs: 0 });
    expect(settings).toMatchObject({
      dry_multiplier: 0.8,
      dry_base: 1.75,
      dry_sequence_breakers: ['\n', ':', '"', '*'],
      xtc_probability: 0.5,
      min_keep: 2,
      samplers: ['top_k', 'temperature'],
    });
    const params = slotParams({ parameters, max_tokens: null, stop: ['x'], stream: false, n_probs: 0 });
    for (const key of ['stop', 'logit_bias', 'dry_sequence_breakers']) expect(params).not.toHaveProperty(key);
    expect(defaultGenerationSettings().samplers).toEqual(DEFAULT_SAMPLER_ORDER);
  });
});
