import { inpageTestFim, inpageTestSpec } from './inpage-test-spec';

/** Character classes whose members predict their cyclic successors. */
const CYCLES: readonly { readonly first: number; readonly size: number }[] = [
  { first: 0x61, size: 26 }, // a..z
  { first: 0x41, size: 26 }, // A..Z
  { first: 0x30, size: 10 }, // 0..9
];

const FULL_STOP = 0x2e;

/** Logit of token j when it is not one of the favoured tokens: -20 - 0.001 j. */
export function backgroundLogit(tokenId: number): number {
  return -20 - 0.001 * tokenId;
}

/** The k-th cyclic successor of `token` within its class, or undefined outside the classes. */
export function cyclicSuccessor(token: number, k: number): number | undefined {
  const cycle = CYCLES.find((c) => token >= c.first && token < c.first + c.size);
  return cycle && cycle.first + ((token - cycle.first + k) % cycle.size);
}

/**
 * The intended (closed-form) next-token logits of `inpage-test` given the last token:
 * - letter/digit t: succ(t) 2, succ²(t) 1, succ³(t) 0 (cyclic within a-z, A-Z, 0-9);
 * - '.': EOS 0;
 * - the FIM variant's middle token: 'm' 0;
 * - anything else: t itself 0;
 * every other token gets {@link backgroundLogit}. `nVocab` is 261 for the FIM variant.
 */
export function inpageTestLogits(prevToken: number, nVocab: number = inpageTestSpec.nVocab): Float64Array {
  const { eosTokenId } = inpageTestSpec;
  if (!Number.isInteger(prevToken) || prevToken < 0 || prevToken >= nVocab) {
    throw new RangeError(`token id out of range: ${prevToken}`);
  }
  const logits = new Float64Array(nVocab);
  for (let j = 0; j < nVocab; j++) logits[j] = backgroundLogit(j);
  if (cyclicSuccessor(prevToken, 0) !== undefined) {
    for (let k = 1; k <= 3; k++) logits[cyclicSuccessor(prevToken, k) ?? prevToken] = 3 - k;
  } else if (prevToken === FULL_STOP) {
    logits[eosTokenId] = 0;
  } else if (prevToken === inpageTestFim.mid.id) {
    logits[inpageTestFim.afterMid] = 0;
  } else {
    logits[prevToken] = 0;
  }
  return logits;
}

/** Numerically stable log-softmax. */
export function logSoftmax(logits: ArrayLike<number>): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i] ?? -Infinity);
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp((logits[i] ?? -Infinity) - max);
  const logZ = max + Math.log(sum);
  const out = new Float64Array(logits.length);
  for (let i = 0; i < logits.length; i++) out[i] = (logits[i] ?? -Infinity) - logZ;
  return out;
}

/** Log-probabilities (temperature 1) of the next token given the last token. */
export function inpageTestLogprobs(prevToken: number, nVocab: number = inpageTestSpec.nVocab): Float64Array {
  return logSoftmax(inpageTestLogits(prevToken, nVocab));
}
