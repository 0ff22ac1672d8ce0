/**
 * Random-weight llama models for speed measurements (`npm run bench`): the byte-level
 * vocabulary of `inpage-test`, realistic shapes, every matrix stored as F32, F16, Q8_0 or
 * Q4_0. The weights mean nothing; only the amount of work per token is realistic. Greedy
 * output is ASCII (see the output projection).
 */
import { byteVocab } from './byte-vocab';
import { writeGguf, type GgufKv, type GgufTensor } from './gguf-writer';
import { createPrng, uniformArray, type Prng } from './prng';
import type { GgmlType } from './quantize';

/** The shape of a bench model. */
export interface BenchShape {
  readonly nEmbd: number;
  readonly nLayer: number;
  readonly nFf: number;
  readonly nHead: number;
}

/** Named shapes: ~110 MB and ~410 MB in F32. */
export const BENCH_SHAPES = {
  small: { nEmbd: 512, nLayer: 8, nFf: 1536, nHead: 8 },
  large: { nEmbd: 1024, nLayer: 8, nFf: 2816, nHead: 16 },
} as const satisfies Record<string, BenchShape>;

export type BenchShapeName = keyof typeof BENCH_SHAPES;

const FILE_TYPE: Record<GgmlType, number> = { f32: 0, f16: 1, q4_0: 2, q8_0: 7 };
const CONTROL = ['<s>', '</s>'];

function metadata(shape: BenchShape, type: GgmlType, name: string): GgufKv[] {
  const vocab = byteVocab(CONTROL);
  const u32 = (key: string, value: number): GgufKv => ({ key, value: { type: 'uint32', value } });
  const f32 = (key: string, value: number): GgufKv => ({ key, value: { type: 'float32', value } });
  const str = (key: string, value: string): GgufKv => ({ key, value: { type: 'string', value } });
  const bool = (key: string, value: boolean): GgufKv => ({ key, value: { type: 'bool', value } });
  return [
    str('general.architecture', 'llama'),
    str('general.name', name),
    u32('general.file_type', FILE_TYPE[type]),
    u32('llama.context_length', 4096),
    u32('llama.embedding_length', shape.nEmbd),
    u32('llama.block_count', shape.nLayer),
    u32('llama.feed_forward_length', shape.nFf),
    u32('llama.attention.head_count', shape.nHead),
    u32('llama.attention.head_count_kv', shape.nHead),
    u32('llama.rope.dimension_count', shape.nEmbd / shape.nHead),
    f32('llama.rope.freq_base', 10000),
    f32('llama.attention.layer_norm_rms_epsilon', 1e-5),
    u32('llama.vocab_size', vocab.tokens.length),
    str('tokenizer.ggml.model', 'gpt2'),
    str('tokenizer.ggml.pre', 'default'),
    { key: 'tokenizer.ggml.tokens', value: { type: 'array', itemType: 'string', value: vocab.tokens } },
    { key: 'tokenizer.ggml.token_type', value: { type: 'array', itemType: 'int32', value: vocab.tokenTypes } },
    { key: 'tokenizer.ggml.merges', value: { type: 'array', itemType: 'string', value: [] } },
    u32('tokenizer.ggml.bos_token_id', 256),
    u32('tokenizer.ggml.eos_token_id', 257),
    bool('tokenizer.ggml.add_bos_token', false),
    bool('tokenizer.ggml.add_eos_token', false),
  ];
}

/** A matrix of `rows` rows of `cols` values (ggml dims [cols, rows]), uniform in +-1/sqrt(cols). */
function matrix(rand: Prng, name: string, cols: number, rows: number, type: GgmlType): GgufTensor {
  const a = 1 / Math.sqrt(cols);
  return { name, dims: [cols, rows], data: uniformArray(rand, cols * rows, -a, a), type };
}

/** Builds a bench model as GGUF bytes. Deterministic for a given shape, type and seed. */
export function buildBenchModel(shapeName: BenchShapeName, type: GgmlType, seed = 0xbe7c4): Uint8Array<ArrayBuffer> {
  const shape = BENCH_SHAPES[shapeName];
  const { nEmbd, nFf } = shape;
  const nVocab = 256 + CONTROL.length;
  const rand = createPrng(seed);
  const norm = (name: string): GgufTensor => ({ name, dims: [nEmbd], data: uniformArray(rand, nEmbd, 0.9, 1.1) });
  const tensors: GgufTensor[] = [
    { name: 'token_embd.weight', dims: [nEmbd, nVocab], data: uniformArray(rand, nEmbd * nVocab, -1, 1), type },
  ];
  for (let layer = 0; layer < shape.nLayer; layer++) {
    const name = (suffix: string): string => `blk.${layer}.${suffix}.weight`;
    tensors.push(
      norm(name('attn_norm')),
      matrix(rand, name('attn_q'), nEmbd, nEmbd, type),
      matrix(rand, name('attn_k'), nEmbd, nEmbd, type),
      matrix(rand, name('attn_v'), nEmbd, nEmbd, type),
      matrix(rand, name('attn_output'), nEmbd, nEmbd, type),
      norm(name('ffn_norm')),
      matrix(rand, name('ffn_gate'), nEmbd, nFf, type),
      matrix(rand, name('ffn_up'), nEmbd, nFf, type),
      matrix(rand, name('ffn_down'), nFf, nEmbd, type),
    );
  }
  // Output rows of bytes >= 0x80 and control tokens are zero: their logits are 0 while some ASCII
  // logit is positive, so greedy output stays ASCII (valid UTF-8) with or without a logit_bias.
  const output = matrix(rand, 'output.weight', nEmbd, nVocab, type);
  output.data.fill(0, 128 * nEmbd);
  tensors.push(norm('output_norm.weight'), output);
  return writeGguf({ metadata: metadata(shape, type, `bench-${shapeName}-${type}`), tensors });
}
