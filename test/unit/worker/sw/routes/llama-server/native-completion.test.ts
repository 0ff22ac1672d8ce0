/**
 * `/completion`'s request reading: llama-server's `prompt` forms (text, ids, mixed, several),
 * `n_predict` over `max_tokens`, `post_sampling_probs` refused, unknown keys ignored; and
 * `/embedding`'s `embd_normalize` as llama.cpp's `common_embd_normalize`.
 */
import { describe, expect, it } from 'vitest';
import { readNativePrompts } from '../../../../../../worker/sw/routes/llama-server/native-prompt';
import { normalizeEmbedding } from '../../../../../../worker/sw/routes/llama-server/normalize-embedding';
import { validateNativeCompletion } from '../../../../../../worker/sw/routes/llama-server/validate-native-completion';

describe('readNativePrompts', () => {
  it('reads text, ids and mixes as one prompt, and a list of strings or arrays as several', () => {
    expect(readNativePrompts('ab')).toEqual(['ab']);
    expect(readNativePrompts([97, 98])).toEqual([[97, 98]]);
    expect(readNativePrompts(['ab', 99])).toEqual([['ab', 99]]);
    expect(readNativePrompts(['ab', 'xy'])).toEqual(['ab', 'xy']);
    expect(readNativePrompts([[97], 'xy', [1, 'c']])).toEqual([[97], 'xy', [1, 'c']]);
  });

  it('refuses an empty list, objects and negative ids with a 400 naming prompt', () => {
    for (const bad of [[], { a: 1 }, [{ a: 1 }], [-1], [[]], 3]) {
      expect(() => readNativePrompts(bad)).toThrow(expect.objectContaining({ status: 400, param: 'prompt' }));
    }
  });
});

describe("readNativePrompts: llama-server's { prompt_string, multimodal_data }", () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');
  const wav = Buffer.from('RIFF\0\0\0\0WAVEfmt ').toString('base64');

  it('reads the text with its base64 files, each an image or audio by its bytes, at the model marker', () => {
    const [prompt] = readNativePrompts({ prompt_string: 'a <m> b <m>', multimodal_data: [png, wav] });
    expect(prompt).toEqual({
      text: 'a <m> b <m>',
      media: {
        marker: null,
        items: [
          { bytes: Uint8Array.from(Buffer.from(png, 'base64')), kind: 'image', param: 'prompt.multimodal_data[0]' },
          { bytes: Uint8Array.from(Buffer.from(wav, 'base64')), kind: 'audio', param: 'prompt.multimodal_data[1]' },
        ],
      },
    });
    expect(readNativePrompts([{ prompt_string: 'x' }, 'y'])).toEqual(['x', 'y']);
    const body = validateNativeCompletion({ model: 'm', prompt: { prompt_string: 'p', multimodal_data: [png] } });
    expect(body.texts).toEqual(['p']);
    expect(body.inputs).toEqual(body.prompts);
  });

  it('is a 400 naming the file for bad base64, and the prompt for a bad object', () => {
    expect(() => readNativePrompts([{ prompt_string: 'x', multimodal_data: ['@@'] }])).toThrow(
      expect.objectContaining({ status: 400, param: 'prompt[0].multimodal_data[0]' }),
    );
    expect(() => readNativePrompts({ prompt_string: 'x', multimodal_data: 'abc' })).toThrow(
      expect.objectContaining({ status: 400, param: 'prompt.multimodal_data' }),
    );
    expect(() => readNativePrompts({ prompt_string: 3 })).toThrow(expect.objectContaining({ param: 'prompt' }));
  });
});

describe('validateNativeCompletion', () => {
  it('takes n_predict (then max_tokens, -1 for the context), n_probs, and ignores unknown keys', () => {
    const body = validateNativeCompletion({ model: 'm', prompt: 'ab', n_predict: 3, max_tokens: 9, id_slot: 2 });
    expect([body.max_tokens, body.n_probs, body.cache_prompt, body.stream]).toEqual([3, 0, true, false]);
    expect(validateNativeCompletion({ model: 'm', prompt: 'ab', n_predict: -1 }).max_tokens).toBeNull();
    expect(validateNativeCompletion({ model: 'm', prompt: [97, 'b'] }).inputs).toEqual([[97]]);
  });

  it('is a 400 naming the field for a bad value, a missing prompt, post_sampling_probs', () => {
    const cases: Array<[unknown, string]> = [
      [{ model: 'm', prompt: 'ab', n_predict: 'x' }, 'n_predict'],
      [{ model: 'm' }, 'prompt'],
      [{ model: 'm', prompt: 'ab', n_probs: 21 }, 'n_probs'],
      [{ model: 'm', prompt: 'ab', post_sampling_probs: true }, 'post_sampling_probs'],
      [{ model: 'm', prompt: 'ab', temperature: 'hot' }, 'temperature'],
    ];
    for (const [body, param] of cases)
      expect(() => validateNativeCompletion(body)).toThrow(expect.objectContaining({ status: 400, param }));
  });
});

describe('normalizeEmbedding', () => {
  const v = [3, -4];
  it('is Euclidean at 2, none at -1, taxicab at 1, int16-scaled max at 0, the p-norm above', () => {
    expect(normalizeEmbedding(v, 2)).toEqual([0.6000000238418579, -0.800000011920929]);
    expect(normalizeEmbedding(v, -1)).toEqual([3, -4]);
    expect(normalizeEmbedding(v, 1)).toEqual([
      Math.fround(3 * Math.fround(1 / 7)),
      Math.fround(-4 * Math.fround(1 / 7)),
    ]);
    expect(normalizeEmbedding(v, 0)).toEqual([24570, -32760]);
    const p3 = Math.fround(1 / (27 + 64) ** (1 / 3));
    expect(normalizeEmbedding(v, 3)).toEqual([Math.fround(3 * p3), Math.fround(-4 * p3)]);
    expect(normalizeEmbedding([0, 0], 2)).toEqual([0, 0]);
  });
});
