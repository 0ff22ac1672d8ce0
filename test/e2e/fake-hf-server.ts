/**
 * A stand-in for huggingface.co in the download specs, on two hosts as the real one is: the hub
 * (`/api/models/<repo>/tree/main?recursive=true` lists a repo's files with their sizes and Git
 * LFS oids; `/<repo>/resolve/main/<path>` answers a GGUF with a 302 to the CDN, carrying
 * `X-Linked-Size` and `X-Linked-ETag`) and the CDN, a range server with the bytes. Each redirect
 * carries a fresh query, as the real CDN's signed URLs do, so a spec sees a client that keys its
 * cache by the CDN's URL. Unknown repos get Hugging Face's `RepoNotFound` answer.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORS_HEADERS, decodedPath, startRangeServer, type RangeServer } from './range-server';

export interface FakeHfOptions {
  /** Each repo's files: `{ 'owner/name': { 'path/x.gguf': bytes } }`. */
  repos: Record<string, Record<string, Uint8Array>>;
  /** The status of an unknown repo's answer: 404, or 401 as huggingface.co answers a request without a token. */
  missingStatus?: 401 | 404;
  /** Entries per page of the tree API (it pages with `Link: <...>; rel="next"`); one page when absent. */
  treePageSize?: number;
}

export interface FakeHf {
  /** `http://127.0.0.1:<port>/`, the hub, as `resolveHf` and llama.cpp's `MODEL_ENDPOINT` take it. */
  readonly endpoint: string;
  /** The hub host: the API and the `resolve` redirects (its `requests` log the API calls). */
  readonly hub: RangeServer;
  /** The CDN host the redirects point to; a file's path there is `cdnPath(repo, path)`. */
  readonly cdn: RangeServer;
  /** `/owner/name/path/x.gguf`: the file's path on the CDN, for `cdn.cutAfter` and `cdn.bytesSent`. */
  cdnPath(repo: string, path: string): string;
  /** Adds or replaces a repo's file (a new sha256 and new ETags). */
  put(repo: string, path: string, bytes: Uint8Array): void;
  close(): Promise<void>;
}

interface RepoFile {
  bytes: Uint8Array;
  sha256: string;
  /** The Git blob id: of the LFS pointer for a file in LFS, else of the bytes. */
  oid: string;
  /** The LFS pointer's size; absent for a file in Git. */
  pointerSize?: number;
}

/** What huggingface.co's own CORS lets a page read, besides what a CDN exposes. */
const HUB_HEADERS = {
  ...CORS_HEADERS,
  'Access-Control-Expose-Headers': `${CORS_HEADERS['Access-Control-Expose-Headers']}, Link, X-Error-Code`,
};

const hex = (algorithm: string, ...data: Array<string | Uint8Array>) =>
  data.reduce((hash, part) => hash.update(part), createHash(algorithm)).digest('hex');

/** Hugging Face keeps GGUFs (and anything of 10 MiB or more) in Git LFS; the rest in Git. */
function repoFile(path: string, bytes: Uint8Array): RepoFile {
  const sha256 = hex('sha256', bytes);
  const lfs = path.endsWith('.gguf') || bytes.length >= 10 * 1024 * 1024;
  const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${sha256}\nsize ${bytes.length}\n`;
  const blob = lfs ? new TextEncoder().encode(pointer) : bytes;
  const oid = hex('sha1', `blob ${blob.length}\0`, blob);
  return { bytes, sha256, oid, ...(lfs ? { pointerSize: blob.length } : {}) };
}

/** The tree API's entries under `folder` ('' for the root), as huggingface.co lists them. */
function treeOf(files: Map<string, RepoFile>, folder: string, recursive: boolean): unknown[] {
  const folders = new Set<string>();
  for (const parts of [...files.keys()].map((path) => path.split('/')))
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  const within = (path: string) => {
    const rest = folder === '' ? path : path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : null;
    return rest !== null && (recursive || !rest.includes('/'));
  };
  const entries = [
    ...[...folders].map((path) => ({ type: 'directory', oid: hex('sha1', path), size: 0, path })),
    ...[...files].map(([path, file]) => ({
      type: 'file',
      oid: file.oid,
      size: file.bytes.length,
      path,
      ...(file.pointerSize
        ? { lfs: { oid: file.sha256, size: file.bytes.length, pointerSize: file.pointerSize } }
        : {}),
    })),
  ];
  return entries.filter((entry) => within(entry.path)).sort((a, b) => (a.path < b.path ? -1 : 1));
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response
    .writeHead(status, { ...HUB_HEADERS, 'Content-Type': 'application/json; charset=utf-8', ...headers })
    .end(JSON.stringify(body));
}

/** Starts the hub and the CDN on 127.0.0.1, each on a free port. */
export async function startFakeHf({ repos, missingStatus = 404, treePageSize }: FakeHfOptions): Promise<FakeHf> {
  const store = new Map<string, Map<string, RepoFile>>();
  const cdnPath = (repo: string, path: string) => `/${repo}/${path}`;
  const encoded = (path: string) => path.split('/').map(encodeURIComponent).join('/');
  let redirects = 0;

  /** The answers for a repo that is not there, a revision other than `main`, a file that is not there. */
  const notFound = {
    repo: (response: ServerResponse) =>
      json(response, missingStatus, { error: 'Repository not found' }, { 'X-Error-Code': 'RepoNotFound' }),
    rev: (response: ServerResponse, rev: string) =>
      json(response, 404, { error: `Invalid rev id: ${rev}` }, { 'X-Error-Code': 'RevisionNotFound' }),
    entry: (response: ServerResponse) =>
      json(response, 404, { error: 'Entry not found' }, { 'X-Error-Code': 'EntryNotFound' }),
  };

  function tree(request: IncomingMessage, response: ServerResponse, files: Map<string, RepoFile>, folder: string) {
    const url = new URL(request.url ?? '/', hub.url);
    const recursive = ['true', '1'].includes(url.searchParams.get('recursive') ?? '');
    const entries = treeOf(files, folder, recursive);
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const end = treePageSize === undefined ? entries.length : start + treePageSize;
    url.searchParams.set('cursor', String(end));
    json(response, 200, entries.slice(start, end), end < entries.length ? { Link: `<${url.href}>; rel="next"` } : {});
  }

  function resolve(response: ServerResponse, repo: string, path: string, file: RepoFile) {
    const headers = { ...HUB_HEADERS, ETag: `"${file.oid}"` };
    if (file.pointerSize === undefined) {
      response.writeHead(200, { ...headers, 'Content-Length': String(file.bytes.length) }).end(file.bytes);
      return;
    }
    const location = `${cdn.url}${encoded(cdnPath(repo, path))}?expires=${++redirects}`;
    response
      .writeHead(302, {
        ...headers,
        Location: location,
        'X-Linked-Size': String(file.bytes.length),
        'X-Linked-ETag': `"${file.sha256}"`,
        'Content-Length': '0',
      })
      .end();
  }

  /** The hub's routes; a HEAD of `resolve` gets the GET's headers (Node leaves the body out). */
  function handle(request: IncomingMessage, response: ServerResponse): boolean {
    const path = decodedPath(request.url);
    const api = /^\/api\/models\/([^/]+\/[^/]+)\/tree\/([^/]+)\/?(.*)$/.exec(path);
    const file = api ? undefined : /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(path);
    const [, repo = '', rev = '', rest = ''] = api ?? file ?? [];
    if (!api && !file) return false;
    const files = store.get(repo);
    if (!files) notFound.repo(response);
    else if (rev !== 'main') notFound.rev(response, rev);
    else if (api) tree(request, response, files, rest.replace(/\/$/, ''));
    else {
      const found = files.get(rest);
      if (found) resolve(response, repo, rest, found);
      else notFound.entry(response);
    }
    return true;
  }

  const hub = await startRangeServer({ handle });
  const cdn = await startRangeServer();
  const put = (repo: string, path: string, bytes: Uint8Array) => {
    const files = store.get(repo) ?? new Map<string, RepoFile>();
    store.set(repo, files.set(path, repoFile(path, bytes)));
    cdn.replace(cdnPath(repo, path), bytes);
  };
  for (const [repo, files] of Object.entries(repos)) {
    store.set(repo, new Map());
    for (const [path, bytes] of Object.entries(files)) put(repo, path, bytes);
  }
  return {
    endpoint: `${hub.url}/`,
    hub,
    cdn,
    cdnPath,
    put,
    close: async () => void (await Promise.all([hub.close(), cdn.close()])),
  };
}
