/**
 * A Hugging Face model id as a page names it (`hf:owner/repo`, `hf:owner/repo:Q4_K_M`,
 * `hf:owner/repo/path/file.gguf`): the same forms as llama.cpp's `-hf <repo>[:quant]` and
 * `-hff <file>`, so a model that runs under `llama-server -hf` is named the same way here.
 * Parsing only: which files the id stands for is the engine's business (it needs the network).
 */
import { InvalidRequestError } from './errors';

export interface HfId {
  /** `owner/name`. */
  repo: string;
  /** The quant tag (`Q4_K_M`), upper case: llama.cpp matches it case-insensitively. */
  quant?: string;
  /** A file's path in the repo (ends in `.gguf`); chosen instead of a quant. */
  file?: string;
}

const PREFIX = 'hf:';

/**
 * One part of a repo id as Hugging Face accepts it (and llama.cpp checks it): letters, digits
 * and `_`, with `-` and `.` only between two of them (no `..`, `--`, nor one at either end).
 */
const REPO_PART = /^[A-Za-z0-9_]+(?:[-.][A-Za-z0-9_]+)*$/;
/** Hugging Face's limit on an owner's or a repo's name. */
const MAX_PART_LENGTH = 96;
/** A quant tag: `Q4_K_M`, `F16`, `IQ2_XXS`, and tags with a prefix like Unsloth's `UD-Q4_K_XL`. */
const QUANT = /^[A-Za-z0-9_]+(?:[-.][A-Za-z0-9_]+)*$/;

const malformed = (text: string, why: string) =>
  new InvalidRequestError(
    `'${text}' is not a Hugging Face model id (${why}): use hf:owner/repo, hf:owner/repo:QUANT or hf:owner/repo/file.gguf.`,
    'model',
    'invalid_value',
  );

/** Null when `text` does not start with `hf:`; throws `InvalidRequestError` for a malformed `hf:` id. */
export function parseHfId(text: string): HfId | null {
  if (!text.startsWith(PREFIX)) return null;
  const [owner = '', name = '', ...rest] = text.slice(PREFIX.length).split('/');
  const colon = rest.length === 0 ? name.indexOf(':') : -1;
  const repoName = colon < 0 ? name : name.slice(0, colon);
  for (const part of [owner, repoName]) {
    if (!REPO_PART.test(part) || part.length > MAX_PART_LENGTH) throw malformed(text, `bad repo name '${part}'`);
  }
  const repo = `${owner}/${repoName}`;
  if (colon >= 0) {
    const quant = name.slice(colon + 1);
    if (!QUANT.test(quant)) throw malformed(text, `bad quant tag '${quant}'`);
    return { repo, quant: quant.toUpperCase() };
  }
  if (rest.length === 0) return { repo };
  if (rest.some((segment) => segment === '.' || segment === '..' || !/^[^\\\u0000-\u001f]+$/.test(segment)))
    throw malformed(text, 'bad file path');
  const file = rest.join('/');
  if (!file.endsWith('.gguf')) throw malformed(text, 'the file is not a .gguf');
  return { repo, file };
}

/** The model's id as `/v1/models` lists it: `owner/name:QUANT`, `owner/name/path/file.gguf` or `owner/name`. */
export function hfModelId(id: HfId): string {
  if (id.file !== undefined) return `${id.repo}/${id.file}`;
  if (id.quant !== undefined) return `${id.repo}:${id.quant}`;
  return id.repo;
}
