/**
 * Which files an `hf:` model id stands for, chosen by the rules of llama.cpp's `-hf`, so a
 * page and `llama-server -hf owner/repo:Q4_K_M` load the same GGUF: the repo's file list from
 * the tree API; the model is the first GGUF (not a sidecar, not a later split part) whose path
 * holds the quant tag followed by `.` or `-` (case-insensitive; with no tag Q4_K_M, then Q8_0,
 * then the first GGUF); a split model is every `-0000i-of-0000N` part of the same prefix; the
 * `mmproj` is the one nearest the model's folder, then nearest its bits.
 */
import { ServiceUnavailableError } from '#core/domain/errors';
import type { HfId } from '#core/domain/hf-id';
import { escapeRegExp } from '#core/util/escape-regexp';

export interface ResolvedFile {
  /** `<endpoint><repo>/resolve/main/<path>` (Hugging Face answers it with a redirect to its CDN). */
  url: string;
  /** The path in the repo. */
  path: string;
  size?: number;
  /** The Git LFS oid, which is the file's SHA-256 (hex); absent for a file not in LFS. */
  sha256?: string;
}

export interface HfResolution {
  /** The GGUF's parts in order: one, or a split model's `-00001-of-0000N` ... `-0000N-of-0000N`. */
  files: ResolvedFile[];
  /** The multimodal projector beside the model, when the repo has one. */
  mmproj?: ResolvedFile;
}

interface GgufName {
  /** The path without `.gguf` and the split suffix. */
  prefix: string;
  /** The quant tag that ends the prefix (`Q4_K_M`), upper case; '' when none. */
  tag: string;
  index: number;
  count: number;
}

const DEFAULT_TAGS = ['Q4_K_M', 'Q8_0'];
/** Words in a GGUF's file name that make it a sidecar, not a model (as llama.cpp tells them apart). */
const SIDECARS = ['mmproj', 'imatrix', 'mtp-', 'eagle3-', 'dflash-', 'dspark-'];
const SPLIT = /^(.+)-(\d{5})-of-(\d{5})$/i;
const TAG = /[-.]([A-Z0-9_]+)$/i;

function ggufName(path: string): GgufName | null {
  if (!path.endsWith('.gguf')) return null;
  const split = SPLIT.exec(path.slice(0, -'.gguf'.length));
  const prefix = split?.[1] ?? path.slice(0, -'.gguf'.length);
  const tag = TAG.exec(prefix)?.[1]?.toUpperCase() ?? '';
  return { prefix, tag, index: Number(split?.[2] ?? 1), count: Number(split?.[3] ?? 1) };
}

/** A quant's bits, its first number (Q4_K_M 4, F16 16), to find the projector nearest the model. */
const bits = (path: string) => Number(/\d+/.exec(ggufName(path)?.tag ?? '')?.[0] ?? 0);

/** A model GGUF that names the whole model: not a sidecar, and not part 2 or later of a split. */
function isModelHead(file: ResolvedFile): boolean {
  const name = ggufName(file.path);
  const base = file.path.slice(file.path.lastIndexOf('/') + 1);
  return name !== null && name.index === 1 && !SIDECARS.some((word) => base.includes(word));
}

const failed = (message: string, code: string, cause?: unknown) =>
  new ServiceUnavailableError(message, code, cause === undefined ? undefined : { cause });

/** The quants a repo offers (a model's path where its name ends in no tag), for the errors that list them. */
const offered = (heads: ResolvedFile[]) => [...new Set(heads.map((file) => ggufName(file.path)?.tag || file.path))];

/** The first model whose path holds the tag and then `.` or `-`; with no tag Q4_K_M, then Q8_0, then the first model. */
function matchTag(heads: ResolvedFile[], quant: string | undefined): ResolvedFile | undefined {
  for (const tag of quant === undefined ? DEFAULT_TAGS : [quant]) {
    const pattern = new RegExp(`${escapeRegExp(tag)}[.-]`, 'i');
    const hit = heads.find((file) => pattern.test(file.path));
    if (hit) return hit;
  }
  return quant === undefined ? heads[0] : undefined;
}

function pickModel(files: ResolvedFile[], id: HfId): ResolvedFile {
  const heads = files.filter(isModelHead);
  const found = id.file === undefined ? matchTag(heads, id.quant) : files.find((file) => file.path === id.file);
  if (found) return found;
  if (heads.length === 0) throw failed(`Hugging Face repo '${id.repo}' has no GGUF model file.`, 'model_load_failed');
  const what = id.file === undefined ? `no GGUF file for quant '${id.quant}'` : `no file '${id.file}'`;
  const there = id.file === undefined ? offered(heads) : heads.map((file) => file.path);
  throw failed(`Hugging Face repo '${id.repo}' has ${what}; it has ${there.join(', ')}.`, 'model_load_failed');
}

/** All parts of the model `head` is one of, in order; throws when the repo lacks one. */
function partsOf(files: ResolvedFile[], head: ResolvedFile, repo: string): ResolvedFile[] {
  const name = ggufName(head.path);
  if (name === null || name.count <= 1) return [head];
  const parts = files
    .map((file) => ({ file, part: ggufName(file.path) }))
    .filter(({ part }) => part?.count === name.count && part.prefix === name.prefix)
    .sort((a, b) => (a.part?.index ?? 0) - (b.part?.index ?? 0));
  if (parts.length !== name.count || parts.some(({ part }, i) => part?.index !== i + 1))
    throw failed(`Hugging Face repo '${repo}' lacks parts of the split model '${head.path}'.`, 'model_load_failed');
  return parts.map(({ file }) => file);
}

/** The `mmproj` GGUF in the model's folder or one above it: the deepest, then the nearest in bits. */
function pickMmproj(files: ResolvedFile[], model: ResolvedFile): ResolvedFile | undefined {
  const folders = model.path.split('/').slice(0, -1);
  let best: { file: ResolvedFile; depth: number; diff: number } | undefined;
  for (const file of files) {
    if (!file.path.endsWith('.gguf') || !file.path.includes('mmproj')) continue;
    const own = file.path.split('/').slice(0, -1);
    if (own.length > folders.length || own.some((folder, i) => folder !== folders[i])) continue;
    const depth = own.length;
    const diff = Math.abs(bits(file.path) - bits(model.path));
    if (!best || depth > best.depth || (depth === best.depth && diff < best.diff)) best = { file, depth, diff };
  }
  return best?.file;
}

/** A tree API entry as a file, or nothing for a folder or an entry it cannot be (a path with `..`). */
function toFile(item: unknown, base: string): ResolvedFile[] {
  const field = (value: unknown, key: string): unknown =>
    typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
  const path = field(item, 'path');
  if (field(item, 'type') !== 'file' || typeof path !== 'string') return [];
  const segments = path.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return [];
  const lfs = field(item, 'lfs');
  const size = field(lfs, 'size') ?? field(item, 'size');
  const oid = field(lfs, 'oid');
  return [
    {
      url: base + segments.map(encodeURIComponent).join('/'),
      path,
      ...(typeof size === 'number' ? { size } : {}),
      ...(typeof oid === 'string' && /^[0-9a-f]{64}$/i.test(oid) ? { sha256: oid.toLowerCase() } : {}),
    },
  ];
}

/** Every file of the repo at `main`, through each page of the tree API (it pages with `Link: <...>; rel="next"`). */
async function listFiles(repo: string, endpoint: string, fetchImpl: typeof fetch): Promise<ResolvedFile[]> {
  const files: ResolvedFile[] = [];
  let url: string | undefined = `${endpoint}api/models/${repo}/tree/main?recursive=true`;
  while (url !== undefined) {
    let page: unknown;
    let response: Response;
    try {
      response = await fetchImpl(url, { headers: { accept: 'application/json' } });
      page = response.ok ? await response.json() : await response.text();
    } catch (error) {
      throw failed(
        `Could not list the files of Hugging Face repo '${repo}': ${String(error)}`,
        'model_download_failed',
        error,
      );
    }
    if (response.status === 401 || response.status === 404)
      throw failed(`Hugging Face repo '${repo}' was not found (HTTP ${response.status}).`, 'model_load_failed');
    if (!response.ok) {
      const code = response.status >= 500 || response.status === 429 ? 'model_download_failed' : 'model_load_failed';
      throw failed(`Hugging Face answered HTTP ${response.status} listing repo '${repo}'.`, code);
    }
    if (!Array.isArray(page))
      throw failed(`Hugging Face's file list of repo '${repo}' is not a list.`, 'model_load_failed');
    files.push(...page.flatMap((item) => toFile(item, `${endpoint}${repo}/resolve/main/`)));
    const next = /<([^>]+)>\s*;\s*rel="?next"?/.exec(response.headers.get('link') ?? '')?.[1];
    url = next === undefined ? undefined : new URL(next, url).href;
  }
  return files;
}

/**
 * The files `id` stands for in the repo at `endpoint` (where `MODEL_ENDPOINT` points llama.cpp).
 * Throws `ServiceUnavailableError`: `model_load_failed` for a missing repo, no GGUF, or no file
 * of the quant (naming the quants there are); `model_download_failed` when the network failed.
 */
export async function resolveHf(
  id: HfId,
  endpoint = 'https://huggingface.co/',
  fetchImpl: typeof fetch = fetch,
): Promise<HfResolution> {
  const files = await listFiles(id.repo, endpoint.endsWith('/') ? endpoint : `${endpoint}/`, fetchImpl);
  const model = pickModel(files, id);
  const mmproj = pickMmproj(files, model);
  return { files: partsOf(files, model, id.repo), ...(mmproj ? { mmproj } : {}) };
}
