/**
 * Checks parsed `tokenizer.json` / `tokenizer_config.json` values (from `fetch().json()` in a
 * page or `JSON.parse` in Node) and returns them typed for `hfBpeVocab`.
 */
import type { HfTokenizerConfig, HfTokenizerFiles, HfTokenizerJson } from './hf-bpe-vocab';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const optionalString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function fail(what: string): never {
  throw new TypeError(`unexpected tokenizer file: ${what}`);
}

function parseVocab(value: unknown): Record<string, number> {
  if (!isObject(value)) return fail('model.vocab is not an object');
  const vocab: Record<string, number> = {};
  for (const [text, id] of Object.entries(value))
    vocab[text] = typeof id === 'number' ? id : fail(`vocab entry ${JSON.stringify(text)}`);
  return vocab;
}

function parseMerge(value: unknown): string | readonly string[] {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'string'))
    return value.map(String);
  return fail(`merge ${JSON.stringify(value)}`);
}

function parseTokenizerJson(value: unknown): HfTokenizerJson {
  if (!isObject(value) || !isObject(value['model'])) return fail('no model');
  const model = value['model'];
  const merges = model['merges'];
  const added = value['added_tokens'];
  if (typeof model['type'] !== 'string' || !Array.isArray(merges) || !Array.isArray(added))
    return fail('model.type, model.merges or added_tokens');
  return {
    model: { type: model['type'], vocab: parseVocab(model['vocab']), merges: merges.map(parseMerge) },
    added_tokens: added.map((token: unknown) => {
      if (!isObject(token) || typeof token['id'] !== 'number' || typeof token['content'] !== 'string')
        return fail('added token');
      return { id: token['id'], content: token['content'], special: token['special'] === true };
    }),
  };
}

function parseConfig(value: unknown): HfTokenizerConfig {
  if (!isObject(value)) return fail('tokenizer_config.json is not an object');
  const addBos = value['add_bos_token'];
  return {
    chat_template: optionalString(value['chat_template']),
    eos_token: optionalString(value['eos_token']) ?? null,
    pad_token: optionalString(value['pad_token']) ?? null,
    add_bos_token: typeof addBos === 'boolean' ? addBos : undefined,
  };
}

/** Validates the two parsed files; throws a TypeError naming the first part that does not fit. */
export function parseHfTokenizerFiles(tokenizerJson: unknown, tokenizerConfig: unknown): HfTokenizerFiles {
  return { tokenizer: parseTokenizerJson(tokenizerJson), config: parseConfig(tokenizerConfig) };
}
