import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidRequestError } from '#core/domain/errors';
import { MEDIA_DOWNLOAD_LIMIT, mediaBytes } from '../../../../../worker/sw/conversation/media-bytes';

let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/cat.png') return void response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    if (request.url === '/huge') {
      // No content-length: the bound is found while reading.
      response.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(1024 * 1024);
      for (let i = 0; i <= MEDIA_DOWNLOAD_LIMIT / chunk.length; i++) response.write(chunk);
      return void response.end();
    }
    if (request.url === '/declared-huge') {
      response.writeHead(200, { 'content-length': String(MEDIA_DOWNLOAD_LIMIT + 1) });
      return void response.end();
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const part = (url: string) => ({
  source: { kind: 'url' as const, url },
  kind: 'image' as const,
  param: 'messages[0].content[0]',
});

async function refusal(url: string): Promise<InvalidRequestError> {
  const error: unknown = await mediaBytes(part(url)).then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof InvalidRequestError) return error;
  throw new Error(`expected a 400 for ${url}, got ${String(error)}`);
}

describe('mediaBytes', () => {
  it('gives the bytes in the request as they are, and fetches a URL', async () => {
    const bytes = Uint8Array.from([1, 2, 3]);
    expect(await mediaBytes({ source: { kind: 'bytes', bytes }, kind: 'image', param: 'p' })).toBe(bytes);
    expect(await mediaBytes(part(`${base}/cat.png`))).toEqual(Uint8Array.from([0x89, 0x50, 0x4e, 0x47]));
  });

  it("is llama-server's 'Failed to download image', a 400 naming the part, for a bad answer or one over 10 MB", async () => {
    for (const [path, why] of [
      ['/missing', /HTTP 404/],
      ['/huge', /over 10485760 bytes/],
      ['/declared-huge', /10485761 bytes, over/],
    ] as const) {
      const error = await refusal(`${base}${path}`);
      expect(error.status).toBe(400);
      expect(error.message).toMatch(/^Failed to download image/);
      expect(error.message).toMatch(why);
      expect(error.param).toBe('messages[0].content[0]');
    }
    const closed = await refusal('http://127.0.0.1:9/nothing-listens-here');
    expect(closed.message).toMatch(/unreachable/);
  });
});
