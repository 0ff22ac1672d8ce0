/**
 * Constants of `inpage-test-qwen3`: a deterministic test model with Qwen3's architecture and
 * Qwen3's real tokenizer, whose next token depends only on the last token (see
 * `inpage-test-qwen3-logits.ts`). Built by `buildInpageTestQwen3Model`.
 */

/** Model id under which the Qwen3-tokenizer test model is served. */
export const INPAGE_TEST_QWEN3_MODEL_ID = 'inpage-test-qwen3';

/** The text greedy decoding writes after any prompt that does not end in a chain token. */
export const INPAGE_TEST_QWEN3_CHAIN_TEXT = 'Hello, world! 你好 😀 𝔸 café.';

/**
 * Qwen3's tokenization of {@link INPAGE_TEST_QWEN3_CHAIN_TEXT}: 12 distinct tokens; `𝔸`
 * (F0 9D 94 B8) is split across 81250 (" \xF0\x9D"), 242 and 116.
 */
export const INPAGE_TEST_QWEN3_CHAIN: readonly number[] = [
  9707, 11, 1879, 0, 220, 108386, 90316, 81250, 242, 116, 51950, 13,
];

/** Hyper-parameters and token ids of `inpage-test-qwen3`. */
export const inpageTestQwen3Spec = {
  name: INPAGE_TEST_QWEN3_MODEL_ID,
  architecture: 'qwen3',
  /** Rows of token_embd / output as in Qwen3 GGUFs; ids past the tokenizer's are `[PAD<id>]`. */
  nVocab: 151936,
  nEmbd: 16,
  nLayer: 2,
  nHead: 2,
  nHeadKv: 1,
  headDim: 16,
  nFf: 32,
  contextLength: 40960,
  rmsNormEps: 1e-6,
  ropeFreqBase: 1000000,
  /** `<|endoftext|>`: BOS (never added) and padding, as the converter writes them. */
  bosTokenId: 151643,
  padTokenId: 151643,
  /** `<|im_end|>`: EOS (llama.cpp also finds it as EOT by its text). */
  eosTokenId: 151645,
  /** Favoured after chain tokens: " the" (logit 1) and " and" (logit 0). */
  theTokenId: 279,
  andTokenId: 323,
  /** Value of the single nonzero entry of each token embedding row. */
  embeddingValue: 1,
  /** Half-width of the uniform range of q/k/v/gate/up weights. */
  weightScale: 0.05,
  /** Seed of the PRNG that fills the (inert) block weights. */
  seed: 0x51e33e3,
} as const;
