/**
 * llama-server's `meta` from a GGUF's header (model-meta.ts): vocabulary types, parameters and
 * bytes summed over the tensors, `general.file_type`'s name, and llama.cpp's guess without it.
 */
import { describe, expect, it } from 'vitest';
import { GGML_TYPES } from '../../../../src/gguf/gguf-types';
import { ggufMeta } from '../../../../src/gguf/model-meta';
import type { GgufTensorInfo, GgufValue } from '../../../../src/gguf/read-gguf-header';

const type = (code: number) => {
  const found = GGML_TYPES.get(code);
  if (!found) throw new Error(`no type ${code}`);
  return found;
};
const tensor = (name: string, dims: number[], code: number, bytes: number): GgufTensorInfo => ({
  name,
  dims,
  type: type(code),
  offset: 0n,
  bytes: BigInt(bytes),
});

describe('ggufMeta', () => {
  const tensors = [
    tensor('blk.0.attn_norm.weight', [64], 0, 256),
    tensor('blk.0.ffn_up.weight', [64, 128], 12, 4608),
    tensor('blk.0.ffn_down.weight', [128, 64], 14, 6720),
    tensor('token_embd.weight', [64, 258], 12, 9288),
  ];

  it('sums the tensors and names the file type and vocabulary as llama.cpp does', () => {
    const meta = ggufMeta(
      { tensors },
      new Map<string, GgufValue>([
        ['tokenizer.ggml.model', 'llama'],
        ['general.file_type', 15],
      ]),
    );
    expect(meta).toEqual({
      vocab_type: 1,
      n_params: 64 + 8192 + 8192 + 16512,
      size: 256 + 4608 + 6720 + 9288,
      ftype: 'Q4_K - Medium',
    });
    expect(
      ggufMeta(
        { tensors },
        new Map<string, GgufValue>([
          ['tokenizer.ggml.model', 'gpt2'],
          ['general.file_type', 99],
        ]),
      ),
    ).toMatchObject({
      vocab_type: 2,
      ftype: 'unknown, may not work',
    });
  });

  it('without general.file_type: the type most tensors have, guessed (Q4_K is read as Q4_K - Medium)', () => {
    expect(ggufMeta({ tensors }, new Map()).ftype).toBe('(guessed) Q4_K - Medium');
    // A tie: the type that reached the count first, in the tensors' name order.
    const tie = [tensor('b', [32], 8, 34), tensor('a', [32], 2, 18)];
    expect(ggufMeta({ tensors: tie }, new Map()).ftype).toBe('(guessed) Q4_0');
    expect(ggufMeta({ tensors: [] }, new Map([['tokenizer.ggml.model', 'bert']]))).toMatchObject({
      vocab_type: 3,
      ftype: '(guessed) all F32',
    });
  });
});
