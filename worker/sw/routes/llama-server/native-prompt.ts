/**
 * llama-server's `prompt` on `/completion`: a string, token ids, a mix of strings and ids (one
 * prompt: the strings tokenized in place), or an array of those (one answer each). A flat array
 * of strings is several prompts, as there; an empty prompt list is a 400, as there.
 */
import { InvalidRequestError } from '#core/domain/errors';

/** One prompt as sent: text, or ids and texts in order (only ids: token ids). */
export type NativePrompt = string | Array<number | string>;

const isTokenId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isPart = (value: unknown): value is number | string => typeof value === 'string' || isTokenId(value);

const invalid = () =>
  new InvalidRequestError(
    "'prompt' elements must be a string, a list of tokens, or a list of mixed strings & tokens.",
    'prompt',
  );

/** The prompts of `prompt`, in order. */
export function readNativePrompts(prompt: unknown): NativePrompt[] {
  if (typeof prompt === 'string') return [prompt];
  if (!Array.isArray(prompt)) throw invalid();
  if (prompt.length === 0) throw new InvalidRequestError("'prompt' must not be empty.", 'prompt');
  // Ids, or ids among strings: one prompt.
  if (prompt.every(isPart) && prompt.some(isTokenId)) return [prompt];
  return prompt.map((entry: unknown) => {
    if (typeof entry === 'string') return entry;
    if (Array.isArray(entry) && entry.length > 0 && entry.every(isPart)) return entry;
    throw invalid();
  });
}
