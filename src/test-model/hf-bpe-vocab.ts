/**
 * GGUF vocabulary from a Hugging Face byte-level BPE tokenizer (`tokenizer.json` and
 * `tokenizer_config.json`, already parsed), following the rules llama.cpp's
 * convert_hf_to_gguf.py applies: ids the tokenizer lacks become `[PAD<id>]` (unused), added
 * tokens are control when special or spelled `<|...|>` and user-defined otherwise. Pure, so a
 * page can run it on fetched JSON and Node on files.
 */
import { TOKEN_TYPE_CONTROL, TOKEN_TYPE_NORMAL } from './byte-vocab';

/** llama.cpp token types not in byte-vocab.ts. */
export const TOKEN_TYPE_USER_DEFINED = 4;
export const TOKEN_TYPE_UNUSED = 5;

/** The parts of `tokenizer.json` read here. */
export interface HfTokenizerJson {
  readonly model: {
    readonly type: string;
    readonly vocab: Readonly<Record<string, number>>;
    readonly merges: ReadonlyArray<string | readonly string[]>;
  };
  readonly added_tokens: ReadonlyArray<{ readonly id: number; readonly content: string; readonly special: boolean }>;
}

/** The parts of `tokenizer_config.json` read here. */
export interface HfTokenizerConfig {
  readonly chat_template?: string;
  readonly eos_token?: string | null;
  readonly pad_token?: string | null;
  readonly add_bos_token?: boolean;
}

/** A tokenizer's two files, parsed. */
export interface HfTokenizerFiles {
  readonly tokenizer: HfTokenizerJson;
  readonly config: HfTokenizerConfig;
}

/** What goes into `tokenizer.ggml.*`. */
export interface GgufBpeVocab {
  readonly tokens: string[];
  readonly tokenTypes: Int32Array;
  /** Merges as "left right" strings. */
  readonly merges: string[];
  readonly eosTokenId: number | undefined;
  readonly padTokenId: number | undefined;
  readonly addBos: boolean;
  readonly chatTemplate: string | undefined;
}

const looksSpecial = (text: string): boolean => text.startsWith('<|') && text.endsWith('|>');

/** Builds the `nVocab`-entry GGUF vocabulary of a byte-level BPE tokenizer. */
export function hfBpeVocab(files: HfTokenizerFiles, nVocab: number): GgufBpeVocab {
  const { model, added_tokens: added } = files.tokenizer;
  if (model.type !== 'BPE') throw new Error(`expected a BPE tokenizer, got ${model.type}`);
  const tokens = Array.from({ length: nVocab }, (_, id) => `[PAD${id}]`);
  const tokenTypes = new Int32Array(nVocab).fill(TOKEN_TYPE_UNUSED);
  const place = (id: number, text: string, type: number): void => {
    if (!Number.isInteger(id) || id < 0 || id >= nVocab)
      throw new RangeError(`token ${JSON.stringify(text)} has id ${id}, outside ${nVocab}`);
    tokens[id] = text;
    tokenTypes[id] = type;
  };
  for (const [text, id] of Object.entries(model.vocab)) place(id, text, TOKEN_TYPE_NORMAL);
  for (const token of added)
    place(
      token.id,
      token.content,
      token.special || looksSpecial(token.content) ? TOKEN_TYPE_CONTROL : TOKEN_TYPE_USER_DEFINED,
    );
  const merges = model.merges.map((merge) => (typeof merge === 'string' ? merge : merge.join(' ')));
  const idOf = (text: string | null | undefined): number | undefined =>
    added.find((token) => token.content === text)?.id;
  return {
    tokens,
    tokenTypes,
    merges,
    eosTokenId: idOf(files.config.eos_token),
    padTokenId: idOf(files.config.pad_token),
    addBos: files.config.add_bos_token ?? false,
    chatTemplate: files.config.chat_template,
  };
}
