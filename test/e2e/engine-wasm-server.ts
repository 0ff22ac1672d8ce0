/**
 * The committed single-threaded SIMD128 engine for a test file that runs `LlamaWasm` in Node:
 * its wasm served on a free local port for the file's tests (the loader fetches its wasm, and
 * Node's fetch takes no file: URLs). Call at the file's top level; the URL is there once the
 * file's `before` hooks ran.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';

const FILE = 'llama-engine-simd.wasm';

export function useEngineWasm(): { url: () => string } {
  const wasm = readFileSync(`worker/engine/backends/llamacpp/wasm/${FILE}`);
  let server: Server | null = null;
  let url = '';
  before(async () => {
    const started = createServer((_, response) =>
      response.writeHead(200, { 'content-type': 'application/wasm' }).end(wasm),
    );
    server = started;
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(started.address() as AddressInfo).port}/${FILE}`;
  });
  after(() => server?.close());
  return { url: () => url };
}
