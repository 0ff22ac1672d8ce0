import { writeGguf } from './gguf-writer';
import type { GgufTensor } from './gguf-writer';
import { inpageTestLogits } from './inpage-test-logits';
import { inpageTestMetadata } from './inpage-test-metadata';
import { inpageTestFim, inpageTestSpec } from './inpage-test-spec';
import { createPrng, uniformArray } from './prng';
import type { Prng } from './prng';

export { INPAGE_TEST_MODEL_ID, inpageTestFim, inpageTestSpec } from './inpage-test-spec';
export { inpageTestLogits, inpageTestLogprobs } from './inpage-test-logits';

const { nEmbd, nFf, nLayer, rmsNormEps, embeddingValue, weightScale } = inpageTestSpec;

/** token_embd: row t holds `embeddingValue` at dimension t, zeros elsewhere. */
function tokenEmbedding(nVocab: number): Float32Array {
  const data = new Float32Array(nEmbd * nVocab);
  for (let t = 0; t < nVocab; t++) data[t * nEmbd + t] = embeddingValue;
  return data;
}

/**
 * output.weight: row j, column t = L(t)[j] / s, where s is what RMSNorm turns the
 * one-hot embedding value into, so that logits = L(last token).
 */
function outputProjection(nVocab: number): Float32Array {
  const v = embeddingValue;
  const scale = v / Math.sqrt((v * v) / nEmbd + rmsNormEps);
  const data = new Float32Array(nEmbd * nVocab);
  for (let t = 0; t < nVocab; t++) {
    const logits = inpageTestLogits(t, nVocab);
    for (let j = 0; j < nVocab; j++) data[j * nEmbd + t] = (logits[j] ?? 0) / scale;
  }
  return data;
}

/** One block: live q/k/v/gate/up and norms, zero attn_output and ffn_down. */
function blockTensors(layer: number, rand: Prng): GgufTensor[] {
  const name = (suffix: string): string => `blk.${layer}.${suffix}.weight`;
  const random = (count: number): Float32Array => uniformArray(rand, count, -weightScale, weightScale);
  const norm = (): Float32Array => uniformArray(rand, nEmbd, 0.9, 1.1);
  return [
    { name: name('attn_norm'), dims: [nEmbd], data: norm() },
    { name: name('attn_q'), dims: [nEmbd, nEmbd], data: random(nEmbd * nEmbd) },
    { name: name('attn_k'), dims: [nEmbd, nEmbd], data: random(nEmbd * nEmbd) },
    { name: name('attn_v'), dims: [nEmbd, nEmbd], data: random(nEmbd * nEmbd) },
    { name: name('attn_output'), dims: [nEmbd, nEmbd], data: new Float32Array(nEmbd * nEmbd) },
    { name: name('ffn_norm'), dims: [nEmbd], data: norm() },
    { name: name('ffn_gate'), dims: [nEmbd, nFf], data: random(nEmbd * nFf) },
    { name: name('ffn_up'), dims: [nEmbd, nFf], data: random(nEmbd * nFf) },
    { name: name('ffn_down'), dims: [nFf, nEmbd], data: new Float32Array(nFf * nEmbd) },
  ];
}

/**
 * Builds the `inpage-test` GGUF v3 file in memory. Deterministic: every call
 * returns the same bytes. The blocks add nothing to the residual stream, so the
 * next-token logits are exactly {@link inpageTestLogits} of the last token. With `fim`, the
 * fill-in-the-middle variant ({@link inpageTestFim}), for tests of `suffix`; with `chatTemplate`,
 * that template in place of its own (another model's tool-call format, for tests of tools).
 */
export function buildInpageTestModel(options: { fim?: boolean; chatTemplate?: string } = {}): Uint8Array<ArrayBuffer> {
  const fim = options.fim ?? false;
  const nVocab = fim ? inpageTestFim.nVocab : inpageTestSpec.nVocab;
  const rand = createPrng(inpageTestSpec.seed);
  const tensors: GgufTensor[] = [{ name: 'token_embd.weight', dims: [nEmbd, nVocab], data: tokenEmbedding(nVocab) }];
  for (let layer = 0; layer < nLayer; layer++) tensors.push(...blockTensors(layer, rand));
  tensors.push(
    { name: 'output_norm.weight', dims: [nEmbd], data: new Float32Array(nEmbd).fill(1) },
    { name: 'output.weight', dims: [nEmbd, nVocab], data: outputProjection(nVocab) },
  );
  return writeGguf({ metadata: inpageTestMetadata(fim, options.chatTemplate), tensors });
}
