import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import { hfModelId, parseHfId } from '../../../../../src/core/domain/hf-id';

describe('Hugging Face model ids', () => {
  it('is null for what is not an hf: id', () => {
    for (const text of ['', 'inpage-test', 'owner/repo', 'HF:owner/repo', 'https://huggingface.co/a/b'])
      expect(parseHfId(text)).toBeNull();
  });

  it('reads the three forms of llama.cpp -hf / -hff', () => {
    expect(parseHfId('hf:ggml-org/gemma-3-1b-it-GGUF')).toStrictEqual({ repo: 'ggml-org/gemma-3-1b-it-GGUF' });
    expect(parseHfId('hf:unsloth/Qwen3-8B-GGUF:Q4_K_M')).toStrictEqual({
      repo: 'unsloth/Qwen3-8B-GGUF',
      quant: 'Q4_K_M',
    });
    expect(parseHfId('hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF/sub/qwen2.5-0.5b-instruct-q8_0.gguf')).toStrictEqual({
      repo: 'Qwen/Qwen2.5-0.5B-Instruct-GGUF',
      file: 'sub/qwen2.5-0.5b-instruct-q8_0.gguf',
    });
  });

  it('upper-cases the quant (llama.cpp matches it case-insensitively), prefixed tags too', () => {
    expect(parseHfId('hf:a/b:q4_k_m')).toStrictEqual({ repo: 'a/b', quant: 'Q4_K_M' });
    expect(parseHfId('hf:unsloth/Qwen3-8B-GGUF:UD-Q4_K_XL')?.quant).toBe('UD-Q4_K_XL');
  });

  it('takes the names Hugging Face takes', () => {
    for (const repo of ['a/b', 'A_1/b.c-d', '_x/y_', 'o.k/v1.5-GGUF', `${'a'.repeat(96)}/b`])
      expect(parseHfId(`hf:${repo}`)?.repo).toBe(repo);
  });

  it.each([
    'hf:',
    'hf:owner',
    'hf:owner/',
    'hf:/repo',
    'hf:-owner/repo',
    'hf:owner/repo-',
    'hf:owner/.repo',
    'hf:owner/re..po',
    'hf:owner/re--po',
    'hf:ow ner/repo',
    'hf:owner/repö',
    `hf:${'a'.repeat(97)}/b`,
    'hf:owner/repo:',
    'hf:owner/repo:Q4:K',
    'hf:owner/repo:Q4 K',
    'hf:owner/repo:Q4/x.gguf',
    'hf:owner/repo/',
    'hf:owner/repo/model.bin',
    'hf:owner/repo/../x.gguf',
    'hf:owner/repo/a//x.gguf',
    'hf:owner/repo/a\\x.gguf',
  ])('refuses %s as an invalid model', (text) => {
    expect(() => parseHfId(text)).toThrow(InvalidRequestError);
    try {
      parseHfId(text);
    } catch (error) {
      expect(error).toMatchObject({ status: 400, param: 'model', code: 'invalid_value' });
    }
  });

  it('lists the model as owner/name:QUANT, owner/name/file or owner/name', () => {
    for (const [text, id] of [
      ['hf:a/b:q8_0', 'a/b:Q8_0'],
      ['hf:a/b/dir/m-Q4_K_M.gguf', 'a/b/dir/m-Q4_K_M.gguf'],
      ['hf:a/b', 'a/b'],
    ] as const) {
      const parsed = parseHfId(text);
      expect(parsed && hfModelId(parsed)).toBe(id);
    }
  });
});
