/**
 * Builds `inpage-test-qwen3` in memory: a qwen3-architecture GGUF (F32) with Qwen3's tokenizer
 * whose next-token logits are exactly {@link inpageTestQwen3Logits} of the last token. Pure and
 * deterministic: it takes the parsed tokenizer files, so a page can build it from fetched JSON
 * and Node from files (`scripts/load-qwen3-tokenizer.ts`).
 */
import { writeGguf } from './gguf-writer';
import type { GgufTensor } from './gguf-writer';
import { hfBpeVocab } from './hf-bpe-vocab';
import type { HfTokenizerFiles } from './hf-bpe-vocab';
import {
  INPAGE_TEST_QWEN3_CLASSES,
  inpageTestQwen3Class,
  inpageTestQwen3ClassLogits,
} from './inpage-test-qwen3-logits';
import { inpageTestQwen3Metadata } from './inpage-test-qwen3-metadata';
import { inpageTestQwen3Spec } from './inpage-test-qwen3-spec';
import { createPrng, uniformArray } from './prng';
import type { Prng } from './prng';

export {
  INPAGE_TEST_QWEN3_CHAIN,
  INPAGE_TEST_QWEN3_CHAIN_TEXT,
  INPAGE_TEST_QWEN3_MODEL_ID,
  inpageTestQwen3Spec,
} from './inpage-test-qwen3-spec';
export { inpageTestQwen3Class, inpageTestQwen3Logits, inpageTestQwen3Logprobs } from './inpage-test-qwen3-logits';

const { nVocab, nEmbd, nFf, nLayer, nHead, nHeadKv, headDim, rmsNormEps, embeddingValue, weightScale } =
  inpageTestQwen3Spec;

/** token_embd: row t holds `embeddingValue` at the dimension of t's class, zeros elsewhere. */
function tokenEmbedding(): Float32Array {
  const data = new Float32Array(nEmbd * nVocab);
  for (let t = 0; t < nVocab; t++) data[t * nEmbd + inpageTestQwen3Class(t)] = embeddingValue;
  return data;
}

/** output.weight: row j, column c = L_c[j] / s, where s is RMSNorm's image of the embedding value. */
function outputProjection(): Float32Array {
  const v = embeddingValue;
  const scale = v / Math.sqrt((v * v) / nEmbd + rmsNormEps);
  const data = new Float32Array(nEmbd * nVocab);
  for (let c = 0; c < INPAGE_TEST_QWEN3_CLASSES; c++) {
    const logits = inpageTestQwen3ClassLogits(c);
    for (let j = 0; j < nVocab; j++) data[j * nEmbd + c] = (logits[j] ?? 0) / scale;
  }
  return data;
}

/** One block: live norms, q/k/v, q/k head norms, gate/up; zero attn_output and ffn_down. */
function blockTensors(layer: number, rand: Prng): GgufTensor[] {
  const name = (suffix: string): string => `blk.${layer}.${suffix}.weight`;
  const random = (count: number): Float32Array => uniformArray(rand, count, -weightScale, weightScale);
  const norm = (count: number): Float32Array => uniformArray(rand, count, 0.9, 1.1);
  const qDim = nHead * headDim;
  const kvDim = nHeadKv * headDim;
  return [
    { name: name('attn_norm'), dims: [nEmbd], data: norm(nEmbd) },
    { name: name('attn_q'), dims: [nEmbd, qDim], data: random(nEmbd * qDim) },
    { name: name('attn_k'), dims: [nEmbd, kvDim], data: random(nEmbd * kvDim) },
    { name: name('attn_v'), dims: [nEmbd, kvDim], data: random(nEmbd * kvDim) },
    { name: name('attn_q_norm'), dims: [headDim], data: norm(headDim) },
    { name: name('attn_k_norm'), dims: [headDim], data: norm(headDim) },
    { name: name('attn_output'), dims: [qDim, nEmbd], data: new Float32Array(qDim * nEmbd) },
    { name: name('ffn_norm'), dims: [nEmbd], data: norm(nEmbd) },
    { name: name('ffn_gate'), dims: [nEmbd, nFf], data: random(nEmbd * nFf) },
    { name: name('ffn_up'), dims: [nEmbd, nFf], data: random(nEmbd * nFf) },
    { name: name('ffn_down'), dims: [nFf, nEmbd], data: new Float32Array(nFf * nEmbd) },
  ];
}

/**
 * Builds the `inpage-test-qwen3` GGUF v3 file from Qwen3's parsed `tokenizer.json` and
 * `tokenizer_config.json`. Same input, same bytes.
 */
export function buildInpageTestQwen3Model(tokenizer: HfTokenizerFiles): Uint8Array<ArrayBuffer> {
  const metadata = inpageTestQwen3Metadata(hfBpeVocab(tokenizer, nVocab));
  const rand = createPrng(inpageTestQwen3Spec.seed);
  const tensors: GgufTensor[] = [{ name: 'token_embd.weight', dims: [nEmbd, nVocab], data: tokenEmbedding() }];
  for (let layer = 0; layer < nLayer; layer++) tensors.push(...blockTensors(layer, rand));
  tensors.push(
    { name: 'output_norm.weight', dims: [nEmbd], data: new Float32Array(nEmbd).fill(1) },
    { name: 'output.weight', dims: [nEmbd, nVocab], data: outputProjection() },
  );
  return writeGguf({ metadata, tensors });
}
