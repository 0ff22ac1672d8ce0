/**
 * What llama-server's `GET /v1/models` says of a GGUF in each model's `meta`, read from the
 * file's header as llama.cpp reads it: `vocab_type` (llama_vocab_type of
 * `tokenizer.ggml.model`), `n_params` and `size` (its tensors' elements and bytes:
 * llama_model_n_params, llama_model_size) and `ftype` (llama_ftype_name of `general.file_type`,
 * or of the type most of its tensors have, marked "(guessed)", as llama-model-loader.cpp guesses
 * it where the key is missing).
 */
import type { GgufHeader, GgufValue } from './read-gguf-header';

/** llama_vocab_type by `tokenizer.ggml.model` (llama-vocab.cpp). */
const VOCAB_TYPES: Readonly<Record<string, number>> = {
  no_vocab: 0,
  none: 0,
  llama: 1,
  gpt2: 2,
  bert: 3,
  t5: 4,
  rwkv: 5,
  plamo2: 6,
};

/** llama_ftype_name by llama_ftype (llama-model-loader.cpp). */
const FTYPE_NAMES: ReadonlyMap<number, string> = new Map([
  [0, 'all F32'],
  [1, 'F16'],
  [2, 'Q4_0'],
  [3, 'Q4_1'],
  [7, 'Q8_0'],
  [8, 'Q5_0'],
  [9, 'Q5_1'],
  [10, 'Q2_K - Medium'],
  [11, 'Q3_K - Small'],
  [12, 'Q3_K - Medium'],
  [13, 'Q3_K - Large'],
  [14, 'Q4_K - Small'],
  [15, 'Q4_K - Medium'],
  [16, 'Q5_K - Small'],
  [17, 'Q5_K - Medium'],
  [18, 'Q6_K'],
  [19, 'IQ2_XXS - 2.0625 bpw'],
  [20, 'IQ2_XS - 2.3125 bpw'],
  [21, 'Q2_K - Small'],
  [22, 'IQ3_XS - 3.3 bpw'],
  [23, 'IQ3_XXS - 3.0625 bpw'],
  [24, 'IQ1_S - 1.5625 bpw'],
  [25, 'IQ4_NL - 4.5 bpw'],
  [26, 'IQ3_S - 3.4375 bpw'],
  [27, 'IQ3_S mix - 3.66 bpw'],
  [28, 'IQ2_S - 2.5 bpw'],
  [29, 'IQ2_M - 2.7 bpw'],
  [30, 'IQ4_XS - 4.25 bpw'],
  [31, 'IQ1_M - 1.75 bpw'],
  [32, 'BF16'],
  [36, 'TQ1_0 - 1.69 bpw ternary'],
  [37, 'TQ2_0 - 2.06 bpw ternary'],
  [38, 'MXFP4 MoE'],
  [39, 'NVFP4'],
  [40, 'Q1_0'],
  [41, 'Q2_0'],
]);

/** The llama_ftype guessed from the type most tensors have (by ggml type name; F32 otherwise). */
const GUESSED_FTYPES: Readonly<Record<string, number>> = {
  F32: 0,
  F16: 1,
  BF16: 32,
  Q4_0: 2,
  Q4_1: 3,
  Q5_0: 8,
  Q5_1: 9,
  Q8_0: 7,
  Q2_K: 10,
  Q3_K: 12,
  Q4_K: 15,
  Q5_K: 17,
  Q6_K: 18,
  TQ1_0: 36,
  TQ2_0: 37,
  IQ2_XXS: 19,
  IQ2_XS: 20,
  IQ2_S: 28,
  IQ3_XXS: 23,
  IQ1_S: 24,
  IQ1_M: 31,
  IQ4_NL: 25,
  IQ4_XS: 30,
  IQ3_S: 26,
  NVFP4: 39,
  Q1_0: 40,
  Q2_0: 41,
};

export interface GgufMeta {
  vocab_type: number;
  n_params: number;
  size: number;
  ftype: string;
}

/** The meta a header and its metadata give (a split model: the parts' tensors together). */
export function ggufMeta(header: Pick<GgufHeader, 'tensors'>, metadata: ReadonlyMap<string, GgufValue>): GgufMeta {
  const tokenizer = metadata.get('tokenizer.ggml.model');
  let params = 0;
  let size = 0n;
  for (const tensor of header.tensors) {
    params += tensor.dims.reduce((product, dim) => product * dim, 1);
    size += tensor.bytes;
  }
  return {
    vocab_type: typeof tokenizer === 'string' ? (VOCAB_TYPES[tokenizer] ?? 0) : 0,
    n_params: params,
    size: Number(size),
    ftype: ftypeName(header, metadata.get('general.file_type')),
  };
}

function ftypeName(header: Pick<GgufHeader, 'tensors'>, fileType: GgufValue | undefined): string {
  if (typeof fileType === 'number') return FTYPE_NAMES.get(fileType) ?? 'unknown, may not work';
  // As llama.cpp guesses it: tensors in name order, the type that first reaches the most.
  const counts = new Map<string, number>();
  let most = 0;
  let guessed = 'F32';
  for (const tensor of [...header.tensors].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const count = (counts.get(tensor.type.name) ?? 0) + 1;
    counts.set(tensor.type.name, count);
    if (count > most) [most, guessed] = [count, tensor.type.name];
  }
  return `(guessed) ${FTYPE_NAMES.get(GUESSED_FTYPES[guessed] ?? 0) ?? 'all F32'}`;
}
