import type { GgufValue } from './read-gguf-metadata';

/** What the engine needs to know of a model's tokenizer. */
export interface Vocabulary {
  size: number;
  /** Token id -> bytes (byte-level BPE and SentencePiece byte tokens decoded). */
  bytes(id: number): number[];
  /** Token id -> text as the vocabulary spells it. */
  text(id: number): string;
  /** The fill-in-the-middle tokens (prefix, suffix, middle), when the model has them. */
  fim: { pre: number; suf: number; mid: number } | null;
  /**
   * The repo-level FIM tokens (repository name, file separator: Qwen's `<|repo_name|>` and
   * `<|file_sep|>`), where the model has them: llama-server's `/infill` lays out files with them.
   */
  fimFiles: { rep: number | null; sep: number | null };
  /**
   * True when text tokenizes to exactly one token per UTF-8 byte (a byte-level vocabulary
   * without merges, like `inpage-test`): then token ids and text convert both ways exactly.
   */
  byteLevel: boolean;
  /** The longest token in UTF-8 bytes (special tokens counted by their text, which a prompt may spell). */
  maxTokenBytes: number;
}

/** GPT-2's byte <-> printable-character table (bytes_to_unicode). */
function unicodeToByte(): Map<string, number> {
  const map = new Map<string, number>();
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    map.set(String.fromCodePoint(printable ? b : 256 + extra++), b);
  }
  return map;
}

const encoder = new TextEncoder();

/** Builds the vocabulary from GGUF metadata (`tokenizer.ggml.*`). */
export function vocabularyFromMetadata(metadata: Map<string, GgufValue>): Vocabulary {
  const tokens = metadata.get('tokenizer.ggml.tokens');
  if (!Array.isArray(tokens)) throw new Error('GGUF has no tokenizer.ggml.tokens');
  const texts = tokens.map(String);
  const model = String(metadata.get('tokenizer.ggml.model') ?? '');
  const merges = metadata.get('tokenizer.ggml.merges');
  const types = metadata.get('tokenizer.ggml.token_type');
  const typeOf = (id: number) => (Array.isArray(types) ? types[id] : undefined);
  const gpt2 = model === 'gpt2';
  const table = gpt2 ? unicodeToByte() : null;
  const bytes = (id: number): number[] => {
    const text = texts[id] ?? '';
    if (typeOf(id) === 3) return []; // control
    if (typeOf(id) === 4) return Array.from(encoder.encode(text)); // user-defined: raw text
    if (table) return Array.from(text, (char) => table.get(char) ?? 0x3f);
    const byte = /^<0x([0-9A-Fa-f]{2})>$/.exec(text);
    if (byte?.[1]) return [parseInt(byte[1], 16)];
    return Array.from(encoder.encode(text.replaceAll('\u2581', ' ')));
  };
  const byteLevel =
    gpt2 &&
    (!Array.isArray(merges) || merges.length === 0) &&
    texts.length >= 256 &&
    texts.slice(0, 256).every((_, b) => bytes(b).length === 1 && bytes(b)[0] === b);
  let maxTokenBytes = 1;
  for (const [id, text] of texts.entries())
    maxTokenBytes = Math.max(maxTokenBytes, bytes(id).length, typeOf(id) === 3 ? encoder.encode(text).length : 0);
  return {
    size: texts.length,
    bytes,
    text: (id) => texts[id] ?? '',
    byteLevel,
    maxTokenBytes,
    fim: fimTokens(metadata, texts),
    fimFiles: fimFileTokens(metadata, texts),
  };
}

/** FIM token texts of common code models, for GGUFs that do not declare their FIM ids. */
const FIM_TEXTS: ReadonlyArray<readonly [string, string, string]> = [
  ['<|fim_prefix|>', '<|fim_suffix|>', '<|fim_middle|>'],
  ['<fim_prefix>', '<fim_suffix>', '<fim_middle>'],
  ['<PRE>', '<SUF>', '<MID>'],
  ['<｜fim▁begin｜>', '<｜fim▁hole｜>', '<｜fim▁end｜>'],
];

/** The model's FIM token ids: declared (`tokenizer.ggml.fim_*_token_id`, or the older names), else found by text. */
function fimTokens(metadata: Map<string, GgufValue>, texts: readonly string[]): Vocabulary['fim'] {
  const id = (...keys: string[]) =>
    keys.map((key) => metadata.get(key)).find((value): value is number => typeof value === 'number');
  const pre = id('tokenizer.ggml.fim_pre_token_id', 'tokenizer.ggml.prefix_token_id');
  const suf = id('tokenizer.ggml.fim_suf_token_id', 'tokenizer.ggml.suffix_token_id');
  const mid = id('tokenizer.ggml.fim_mid_token_id', 'tokenizer.ggml.middle_token_id');
  if (pre !== undefined && suf !== undefined && mid !== undefined) return { pre, suf, mid };
  for (const [p, s, m] of FIM_TEXTS) {
    const found = [texts.indexOf(p), texts.indexOf(s), texts.indexOf(m)];
    if (found.every((index) => index >= 0)) return { pre: found[0] ?? -1, suf: found[1] ?? -1, mid: found[2] ?? -1 };
  }
  return null;
}

/** Repository-name and file-separator token texts, as llama.cpp finds them in GGUFs that do not declare them. */
const FIM_REP_TEXTS = ['<|fim_repo|>', '<|repo_name|>', '<fim-repo>', '<REPO>', '<reponame>'];
const FIM_SEP_TEXTS = ['<|file_sep|>'];

/** The repo-level FIM token ids: declared (`tokenizer.ggml.fim_rep_token_id`, `..._sep_...`), else found by text. */
function fimFileTokens(metadata: Map<string, GgufValue>, texts: readonly string[]): Vocabulary['fimFiles'] {
  const find = (key: string, candidates: readonly string[]): number | null => {
    const declared = metadata.get(key);
    if (typeof declared === 'number') return declared;
    const index = candidates.map((text) => texts.indexOf(text)).find((found) => found >= 0);
    return index ?? null;
  };
  return {
    rep: find('tokenizer.ggml.fim_rep_token_id', FIM_REP_TEXTS),
    sep: find('tokenizer.ggml.fim_sep_token_id', FIM_SEP_TEXTS),
  };
}
