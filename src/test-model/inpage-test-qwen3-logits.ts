/**
 * The closed-form next-token rule of `inpage-test-qwen3` (temperature 1). The logits depend
 * only on the class of the last token: one of the 12 chain tokens, or "other".
 */
import { logSoftmax } from './inpage-test-logits';
import { INPAGE_TEST_QWEN3_CHAIN, inpageTestQwen3Spec } from './inpage-test-qwen3-spec';

const { nVocab, eosTokenId, theTokenId, andTokenId } = inpageTestQwen3Spec;

/** Number of classes: one per chain token, then "other". */
export const INPAGE_TEST_QWEN3_CLASSES = INPAGE_TEST_QWEN3_CHAIN.length + 1;

/** Class of a last token: its index in the chain, or the last class for any other token. */
export function inpageTestQwen3Class(token: number): number {
  const index = INPAGE_TEST_QWEN3_CHAIN.indexOf(token);
  return index >= 0 ? index : INPAGE_TEST_QWEN3_CHAIN.length;
}

/** Logit of token j when it is not favoured: -20 - 0.001 j (all of them together < 1e-5). */
export function qwen3BackgroundLogit(tokenId: number): number {
  return -20 - 0.001 * tokenId;
}

/** The intended logits of class `c` (see {@link inpageTestQwen3Logits}). */
export function inpageTestQwen3ClassLogits(c: number): Float64Array {
  const chain = INPAGE_TEST_QWEN3_CHAIN;
  if (!Number.isInteger(c) || c < 0 || c >= INPAGE_TEST_QWEN3_CLASSES) throw new RangeError(`class out of range: ${c}`);
  const logits = new Float64Array(nVocab);
  for (let j = 0; j < nVocab; j++) logits[j] = qwen3BackgroundLogit(j);
  const next = chain[c + 1];
  if (next !== undefined) {
    logits[next] = 2;
    logits[theTokenId] = 1;
    logits[andTokenId] = 0;
  } else if (c === chain.length - 1) {
    logits[eosTokenId] = 0;
  } else {
    logits[chain[0] ?? 0] = 0;
  }
  return logits;
}

/**
 * The intended (closed-form) next-token logits of `inpage-test-qwen3` given the last token:
 * - chain token C[i], i < 11: C[i+1] 2, " the" 1, " and" 0;
 * - the last chain token `.`: `<|im_end|>` 0;
 * - any other token: C[0] (`Hello`) 0;
 * every other token gets {@link qwen3BackgroundLogit}.
 */
export function inpageTestQwen3Logits(prevToken: number): Float64Array {
  if (!Number.isInteger(prevToken) || prevToken < 0 || prevToken >= nVocab)
    throw new RangeError(`token id out of range: ${prevToken}`);
  return inpageTestQwen3ClassLogits(inpageTestQwen3Class(prevToken));
}

/** Log-probabilities (temperature 1) of the next token given the last token. */
export function inpageTestQwen3Logprobs(prevToken: number): Float64Array {
  return logSoftmax(inpageTestQwen3Logits(prevToken));
}
