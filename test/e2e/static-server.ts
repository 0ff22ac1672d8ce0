/**
 * A folder served by node:http for the end-to-end specs, as a plain static host serves it: with
 * COOP/COEP (`isolationHeaders`), or without them as GitHub Pages serves; `/` is `index.html`.
 * No bundler, no vite. Used by static-site.ts (Chromium) and firefox-harness.ts.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.css': 'text/css',
};

export interface StaticServer {
  origin: string;
  server: Server;
  close(): Promise<void>;
}

export async function serveFolder(root: string, { isolationHeaders = true } = {}): Promise<StaticServer> {
  const isolation = {
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': 'require-corp',
  };
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    const headers = { ...(isolationHeaders ? isolation : {}), 'Cache-Control': 'no-cache' };
    if (!file.startsWith(normalize(root))) {
      response.writeHead(403, headers).end();
      return;
    }
    readFile(file).then(
      (body) =>
        response
          .writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' })
          .end(body),
      () => response.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('not found'),
    );
  });
  const port = await listen(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('no port'));
      else resolve(address.port);
    });
  });
}
