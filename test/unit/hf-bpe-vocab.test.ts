import { describe, expect, it } from 'vitest';
import { hfBpeVocab } from '../fixtures/hf-bpe-vocab';
import { parseHfTokenizerFiles } from '../fixtures/parse-hf-tokenizer-files';

const tokenizerJson = {
  model: { type: 'BPE', vocab: { a: 0, b: 1, ab: 2, Ġ: 3 }, merges: [['a', 'b'], 'Ġ a'] },
  added_tokens: [
    { id: 5, content: '<|end|>', special: true, normalized: false },
    { id: 6, content: '<|fim_x|>', special: false },
    { id: 7, content: '<think>', special: false },
  ],
};
const config = {
  eos_token: '<|end|>',
  pad_token: '<|fim_x|>',
  add_bos_token: false,
  chat_template: '{{ x }}',
  bos_token: null,
};

describe('hfBpeVocab', () => {
  const vocab = hfBpeVocab(parseHfTokenizerFiles(tokenizerJson, config), 10);

  it("pads missing ids with [PAD<id>] (unused) up to the model's vocabulary size", () => {
    expect(vocab.tokens).toEqual([
      'a',
      'b',
      'ab',
      'Ġ',
      '[PAD4]',
      '<|end|>',
      '<|fim_x|>',
      '<think>',
      '[PAD8]',
      '[PAD9]',
    ]);
    expect([...vocab.tokenTypes]).toEqual([1, 1, 1, 1, 5, 3, 3, 4, 5, 5]);
  });

  it('marks added tokens control when special or spelled <|...|>, user-defined otherwise', () => {
    expect([vocab.tokenTypes[5], vocab.tokenTypes[6], vocab.tokenTypes[7]]).toEqual([3, 3, 4]);
  });

  it('joins pair merges with a space and keeps string merges', () => {
    expect(vocab.merges).toEqual(['a b', 'Ġ a']);
  });

  it('resolves EOS/pad by text and carries add_bos and the chat template', () => {
    expect(vocab).toMatchObject({ eosTokenId: 5, padTokenId: 6, addBos: false, chatTemplate: '{{ x }}' });
  });

  it('rejects ids outside the vocabulary and non-BPE models', () => {
    expect(() => hfBpeVocab(parseHfTokenizerFiles(tokenizerJson, config), 7)).toThrow(RangeError);
    const wordPiece = { ...tokenizerJson, model: { ...tokenizerJson.model, type: 'WordPiece' } };
    expect(() => hfBpeVocab(parseHfTokenizerFiles(wordPiece, config), 10)).toThrow(/BPE/);
  });
});

describe('parseHfTokenizerFiles', () => {
  it.each([
    [null, 'no model'],
    [{ model: { type: 'BPE', vocab: { a: 'x' }, merges: [] }, added_tokens: [] }, 'vocab entry'],
    [{ model: { type: 'BPE', vocab: {}, merges: [['a']] }, added_tokens: [] }, 'merge'],
    [{ model: { type: 'BPE', vocab: {}, merges: [] }, added_tokens: [{ id: '1', content: 'x' }] }, 'added token'],
  ])('names what does not fit (%#)', (json, what) => {
    expect(() => parseHfTokenizerFiles(json, config)).toThrow(new RegExp(what));
  });

  it('treats a missing or null config entry as absent', () => {
    expect(parseHfTokenizerFiles(tokenizerJson, {}).config).toEqual({
      chat_template: undefined,
      eos_token: null,
      pad_token: null,
      add_bos_token: undefined,
    });
    expect(() => parseHfTokenizerFiles(tokenizerJson, [])).toThrow(TypeError);
  });
});
