/**
 * `logit_bias` in OpenAI's form and in llama-server's (server-schema.cpp): an object from token id
 * to bias, whose keys may also be texts, or an array of `[token, bias]` pairs, a token being an
 * id or a text; a bias is a number in [-100, 100] (OpenAI's range) or `false`, a ban. A text
 * stands for each token of its tokenization (the engine's, without special tokens), as there.
 * Where llama-server skips an entry it cannot read (a negative id, a `true`, a pair of three)
 * without a word, here it is a 400 naming `logit_bias`; so is a bias outside OpenAI's range,
 * which llama-server takes.
 */
import * as v from 'valibot';
import type { LogitBias } from '../domain/parameters';
import { describeValue } from './describe-value';

/** An object key that llama-server reads as a token id (strtol takes all of it). */
const ID_KEY = /^-?\d+$/;

/** An entry as written: its token (`text`: a text, whatever it holds) and its bias. */
interface Entry {
  token: unknown;
  text: boolean;
  bias: unknown;
}

type Checked<T> = T | { error: string };

/** The entries of the object or pair form, or why `input` is neither. */
function entriesOf(input: unknown, param: string): Checked<Entry[]> {
  if (Array.isArray(input)) {
    const entries: Entry[] = [];
    for (const [i, pair] of input.entries()) {
      if (!Array.isArray(pair) || pair.length !== 2)
        return {
          error: `Invalid value for '${param}[${i}]': expected a [token, bias] pair, but got ${describeValue(pair)}.`,
        };
      // A string in a pair is a text, even one of digits (llama-server tokenizes it).
      entries.push({ token: pair[0], text: typeof pair[0] === 'string', bias: pair[1] });
    }
    return entries;
  }
  if (typeof input === 'object' && input !== null)
    // Own keys, `__proto__` included (a JSON body's keys are its own).
    return Object.keys(input).map((key) => {
      const text = !ID_KEY.test(key);
      return { token: text ? key : Number(key), text, bias: Reflect.get(input, key) };
    });
  return {
    error: `Invalid type for '${param}': expected an object mapping token ids (or texts) to biases, or an array of [token, bias] pairs, but got ${describeValue(input)} instead.`,
  };
}

function tokenOf({ token, text }: Entry, param: string): Checked<number | string> {
  if (text) return token === '' ? { error: `Invalid key in '${param}': '' names no token.` } : String(token);
  if (typeof token === 'number' && Number.isSafeInteger(token) && token >= 0) return token;
  return { error: `Invalid key in '${param}': '${String(token)}' is not a token id (nor a text).` };
}

/** `false` is a ban: -Infinity. */
function biasOf(bias: unknown, param: string, token: number | string): Checked<number> {
  if (bias === false) return -Infinity;
  if (typeof bias === 'number' && Number.isFinite(bias) && bias >= -100 && bias <= 100) return bias;
  return {
    error: `Invalid value for '${param}': the bias of ${JSON.stringify(token)} must be a number from -100 to 100, or false (a ban), but got ${describeValue(bias)}.`,
  };
}

/** Reads `input` into pairs, or the first error's message. */
function readLogitBias(input: unknown, param: string): Checked<LogitBias> {
  const entries = entriesOf(input, param);
  if ('error' in entries) return entries;
  const pairs: LogitBias = [];
  for (const entry of entries) {
    const token = tokenOf(entry, param);
    if (typeof token === 'object') return token;
    const bias = biasOf(entry.bias, param, token);
    if (typeof bias === 'object') return bias;
    pairs.push([token, bias]);
  }
  return pairs;
}

/** The valibot schema (fields.ts's `logit_bias` kind). */
export const logitBiasField = (param: string) =>
  v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const read = readLogitBias(dataset.value, param);
      if (!('error' in read)) return read;
      addIssue({ message: read.error });
      return NEVER;
    }),
  );
