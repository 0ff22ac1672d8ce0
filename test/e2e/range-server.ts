/**
 * An HTTP file server for the download specs: in-memory files by path, served as a CDN serves
 * them (strong `ETag`, `Last-Modified`, single byte ranges, `If-Range`, CORS for a page of
 * another origin), with the faults a download must survive under the test's control: a file
 * without range support, a connection reset after so many bytes, a slow link, a file that
 * changes or goes. Counts the body bytes it sent and logs each request, so a spec can check
 * that a resumed download fetched only what was missing.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface ServedFile {
  bytes: Uint8Array;
  /** False: answers every GET with the whole file (200) and no `Accept-Ranges`, as some hosts do. */
  ranges?: boolean;
}

export interface RangeRequest {
  method: string;
  path: string;
  range: string | null;
  ifRange: string | null;
}

export interface RangeServerOptions {
  files?: Record<string, Uint8Array | ServedFile>;
  /** The most body bytes per second each connection gets (off when absent). */
  rateLimit?: number;
  /** Answers a request before the files do (another server's routes on top); true when it did. */
  handle?: (request: IncomingMessage, response: ServerResponse) => boolean;
}

export interface RangeServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RangeRequest[];
  /** Bytes per second per connection; settable while it runs. */
  rateLimit: number | undefined;
  /** Body bytes sent for `path` so far, by every response. */
  bytesSent(path: string): number;
  /** The next `times` responses of `path` end the connection after `bytes` body bytes. */
  cutAfter(path: string, bytes: number, times?: number): void;
  /** Adds or replaces a file (a replaced file gets a new `ETag` and `Last-Modified`). */
  replace(path: string, bytes: Uint8Array, options?: { ranges?: boolean }): void;
  remove(path: string): void;
  close(): Promise<void>;
}

/** The headers a page of any origin may read, and send (`Range`), as a CDN allows them. */
export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, Content-Range, Accept-Ranges, Content-Length, X-Linked-Size, X-Linked-ETag',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

interface Entry {
  bytes: Uint8Array;
  ranges: boolean;
  etag: string;
  lastModified: string;
}

const CHUNK = 64 * 1024;
/** How long a cut waits, after its last byte, before the reset. */
const CUT_SETTLE_MS = 300;
let generation = 0;

function entry(bytes: Uint8Array, ranges = true): Entry {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  // Second precision, as HTTP dates have: a replaced file may share its Last-Modified, never its ETag.
  return { bytes, ranges, etag: `"${hash}-${++generation}"`, lastModified: new Date().toUTCString() };
}

/** The one range `header` asks for in a file of `size` bytes: null for none (or one it ignores), or 'unsatisfiable'. */
function parseRange(header: string | undefined, size: number): [number, number] | null | 'unsatisfiable' {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  const [first, last] = [match?.[1] ?? '', match?.[2] ?? ''];
  if (!match || (first === '' && last === '')) return null;
  if (first === '')
    return size === 0 || Number(last) === 0 ? 'unsatisfiable' : [Math.max(0, size - Number(last)), size - 1];
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  return start >= size ? 'unsatisfiable' : [start, last === '' ? size - 1 : Math.min(Number(last), size - 1)];
}

/** Whether an `If-Range` validator names this version (a strong ETag, or the exact Last-Modified). */
const ifRangeHolds = (validator: string | undefined, file: Entry) =>
  validator === undefined || validator === file.etag || validator === file.lastModified;

/** The request's path, decoded where it decodes (`/a%20b.gguf` is the file `/a b.gguf`). */
export function decodedPath(url: string | undefined): string {
  const path = new URL(url ?? '/', 'http://x').pathname;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the server on 127.0.0.1 and a free port. */
export async function startRangeServer(options: RangeServerOptions = {}): Promise<RangeServer> {
  const files = new Map<string, Entry>();
  for (const [path, file] of Object.entries(options.files ?? {}))
    files.set(path, file instanceof Uint8Array ? entry(file) : entry(file.bytes, file.ranges));
  const sent = new Map<string, number>();
  const cuts = new Map<string, { bytes: number; times: number }>();
  const requests: RangeRequest[] = [];

  /** Writes `body`, pacing it to the rate limit and ending the connection at a cut. */
  async function send(response: ServerResponse, path: string, body: Uint8Array, cut: number | undefined) {
    const socket = response.socket;
    // A cut at 0 bytes still sends the status and headers, as a connection lost mid-body does.
    if (cut !== undefined) response.flushHeaders();
    let done = 0;
    while (done < body.length && socket !== null && !socket.destroyed) {
      const rate = server.rateLimit;
      const limit = Math.min(body.length, cut ?? Infinity);
      const chunk = body.subarray(done, Math.min(limit, done + (rate ? Math.max(1, Math.ceil(rate / 20)) : CHUNK)));
      // One response at a time runs on an HTTP/1.1 connection: pacing the response paces the connection.
      if (rate) await sleep((chunk.length / rate) * 1000);
      if (chunk.length > 0 && !(await new Promise<boolean>((resolve) => response.write(chunk, (e) => resolve(!e)))))
        return;
      done += chunk.length;
      sent.set(path, (sent.get(path) ?? 0) + chunk.length);
      if (done === cut) {
        // A reset loses what the client has not read yet (the kernel drops it): the bytes sent
        // get time to be read first, so that a cut at N bytes delivers N bytes, then the reset.
        await sleep(CUT_SETTLE_MS);
        socket.resetAndDestroy();
        return;
      }
    }
    response.end();
  }

  function serve(request: IncomingMessage, response: ServerResponse, path: string) {
    const file = files.get(path);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { ...CORS_HEADERS, Allow: 'GET, HEAD, OPTIONS' }).end();
      return;
    }
    if (!file) {
      response.writeHead(404, { ...CORS_HEADERS, 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const size = file.bytes.length;
    const headers: Record<string, string> = {
      ...CORS_HEADERS,
      'Content-Type': 'application/octet-stream',
      ETag: file.etag,
      'Last-Modified': file.lastModified,
      ...(file.ranges ? { 'Accept-Ranges': 'bytes' } : {}),
    };
    const range =
      file.ranges && ifRangeHolds(request.headers['if-range']?.toString(), file) ? request.headers.range : undefined;
    const span = parseRange(range, size);
    if (span === 'unsatisfiable') {
      response.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}` }).end();
      return;
    }
    const [start, end] = span ?? [0, size - 1];
    if (span) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    response.writeHead(span ? 206 : 200, { ...headers, 'Content-Length': String(end - start + 1) });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    const cut = cuts.get(path);
    if (cut && --cut.times <= 0) cuts.delete(path);
    void send(response, path, file.bytes.subarray(start, end + 1), cut?.bytes);
  }

  const http = createServer((request, response) => {
    const path = decodedPath(request.url);
    const header = (name: string) => request.headers[name]?.toString() ?? null;
    requests.push({ method: request.method ?? 'GET', path, range: header('range'), ifRange: header('if-range') });
    if (request.method === 'OPTIONS') {
      response
        .writeHead(204, {
          ...CORS_HEADERS,
          'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
          'Access-Control-Allow-Headers': 'Range, If-Range',
          'Access-Control-Max-Age': '600',
          ...(request.headers['access-control-request-private-network']
            ? { 'Access-Control-Allow-Private-Network': 'true' }
            : {}),
        })
        .end();
      return;
    }
    if (options.handle?.(request, response)) return;
    serve(request, response, path);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('no port');

  const server: RangeServer = {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    rateLimit: options.rateLimit,
    bytesSent: (path) => sent.get(path) ?? 0,
    cutAfter: (path, bytes, times = 1) => void cuts.set(path, { bytes, times }),
    replace: (path, bytes, { ranges } = {}) => void files.set(path, entry(bytes, ranges ?? files.get(path)?.ranges)),
    remove: (path) => void files.delete(path),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
  return server;
}
