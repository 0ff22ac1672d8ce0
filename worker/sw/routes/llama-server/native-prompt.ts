/**
 * llama-server's `prompt` on `/completion`: a string, token ids, a mix of strings and ids (one
 * prompt: the strings tokenized in place), an object `{ prompt_string, multimodal_data }` (text
 * whose `/props` `media_marker`s stand for the base64 files, in order: issue 32), or an array of
 * those (one answer each). A flat array of strings is several prompts, as there; an empty prompt
 * list is a 400, as there.
 */
import { InvalidRequestError } from '#core/domain/errors';
import type { MediaTextInput } from '#core/domain/generation';
import { base64Bytes } from '#core/media/media-source';
import { mediaKind } from '#core/media/media-kind';
import { isRecord } from '#core/util/is-record';

/** One prompt as sent: text, ids and texts in order (only ids: token ids), or text with media. */
export type NativePrompt = string | Array<number | string> | MediaTextInput;

const isTokenId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isPart = (value: unknown): value is number | string => typeof value === 'string' || isTokenId(value);

const invalid = () =>
  new InvalidRequestError(
    "'prompt' elements must be a string, a list of tokens, a JSON object containing a prompt string, or a list of mixed strings & tokens.",
    'prompt',
  );

/** The prompts of `prompt`, in order. */
export function readNativePrompts(prompt: unknown): NativePrompt[] {
  if (typeof prompt === 'string') return [prompt];
  if (isRecord(prompt)) return [objectPrompt(prompt, 'prompt')];
  if (!Array.isArray(prompt)) throw invalid();
  if (prompt.length === 0) throw new InvalidRequestError("'prompt' must not be empty.", 'prompt');
  // Ids, or ids among strings: one prompt.
  if (prompt.every(isPart) && prompt.some(isTokenId)) return [prompt];
  return prompt.map((entry: unknown, i) => {
    if (typeof entry === 'string') return entry;
    if (isRecord(entry)) return objectPrompt(entry, `prompt[${i}]`);
    if (Array.isArray(entry) && entry.length > 0 && entry.every(isPart)) return entry;
    throw invalid();
  });
}

/**
 * `{ prompt_string, multimodal_data }` (at `at`): the text, with its media where it has any
 * (each a base64 file, whose bytes say whether it is an image or a sound, as mtmd decides).
 */
function objectPrompt(prompt: Record<string, unknown>, at: string): NativePrompt {
  const text = prompt.prompt_string;
  if (typeof text !== 'string') throw invalid();
  const data = prompt.multimodal_data;
  if (data === undefined) return text;
  if (!Array.isArray(data))
    throw new InvalidRequestError(
      `'${at}.multimodal_data' must be an array of base64 strings.`,
      `${at}.multimodal_data`,
    );
  const items = data.map((entry: unknown, j) => {
    const param = `${at}.multimodal_data[${j}]`;
    // Not a string: no bytes either, the same 400.
    const bytes = base64Bytes(typeof entry === 'string' ? entry : '', param);
    return { bytes, kind: mediaKind(bytes), param };
  });
  return { text, media: { marker: null, items } };
}
