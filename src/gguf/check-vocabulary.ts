/**
 * Checks the vocabulary as llama.cpp's loader reads it: a tokenizer model and a list of
 * tokens, each token's text given once (llama.cpp aborts on a repeated one), scores and token
 * types at least as long as the list, merges for a BPE tokenizer, and a token embedding (and
 * output) tensor whose vocabulary dimension is the number of tokens.
 */
import { GgufError } from './gguf-error';
import type { GgufHeader } from './read-gguf-header';

const MAX_TOKENS = 2 ** 31 - 1;
const BPE_MODELS = new Set(['gpt2', 'hybriddna', 'whitespace']);

/** The number of tokens, after checking the vocabulary. */
export function checkVocabulary(header: GgufHeader): number {
  const { metadata } = header;
  const model = metadata.get('tokenizer.ggml.model');
  if (model === undefined) throw new GgufError('the required key tokenizer.ggml.model is missing');
  const tokens = metadata.get('tokenizer.ggml.tokens')?.value;
  if (!Array.isArray(tokens)) throw new GgufError('the required key tokenizer.ggml.tokens is missing');
  if (tokens.length === 0) throw new GgufError('tokenizer.ggml.tokens is empty');
  if (tokens.length > MAX_TOKENS) throw new GgufError(`tokenizer.ggml.tokens has ${tokens.length} tokens`);
  checkUnique(tokens);
  for (const key of ['tokenizer.ggml.scores', 'tokenizer.ggml.token_type']) {
    const values = metadata.get(key)?.value;
    if (Array.isArray(values) && values.length < tokens.length)
      throw new GgufError(`${key} has ${values.length} values for ${tokens.length} tokens`);
  }
  const pre = metadata.get('tokenizer.ggml.pre')?.value;
  if (BPE_MODELS.has(String(model.value)) && pre !== 'kimi-k2' && !metadata.has('tokenizer.ggml.merges'))
    throw new GgufError(`the ${String(model.value)} tokenizer needs tokenizer.ggml.merges, which is missing`);
  for (const name of ['token_embd.weight', 'output.weight']) {
    const tensor = header.tensors.find((t) => t.name === name);
    if (tensor && tensor.dims.length >= 2 && tensor.dims[1] !== tokens.length)
      throw new GgufError(
        `tensor '${name}' is for ${tensor.dims[1]} tokens, but the vocabulary (tokenizer.ggml.tokens) has ${tokens.length}`,
      );
  }
  return tokens.length;
}

/**
 * Each token's text once. llama.cpp names an empty token `[EMPTY_<id>]`; a text with invalid
 * UTF-8 is skipped (decoded, two different byte strings could look alike).
 */
function checkUnique(tokens: readonly unknown[]): void {
  const seen = new Set<string>();
  for (let id = 0; id < tokens.length; id++) {
    const token = tokens[id];
    const text = token === '' ? `[EMPTY_${id}]` : String(token);
    if (!seen.has(text)) seen.add(text);
    else if (!text.includes('\uFFFD'))
      throw new GgufError(
        `tokens ${tokens.indexOf(token)} and ${id} of tokenizer.ggml.tokens are the same text (${JSON.stringify(text)})`,
      );
  }
}
