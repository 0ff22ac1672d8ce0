import { describe, expect, it } from 'vitest';
import { isolated, startsContext } from '../../../../worker/sw/isolate-responses';

describe('isolated responses', () => {
  it('set COOP/COEP over the same status and body, and keep the other headers', async () => {
    const original = new Response('<!doctype html>', {
      status: 200,
      statusText: 'OK',
      headers: { 'content-type': 'text/html', 'cross-origin-embedder-policy': 'unsafe-none' },
    });
    const response = isolated(original, 'credentialless');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(response.headers.get('cross-origin-embedder-policy')).toBe('credentialless');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(await response.text()).toBe('<!doctype html>');
  });

  it('leave answers without readable headers (status 0) as they are', () => {
    const error = Response.error();
    expect(isolated(error, 'require-corp')).toBe(error);
  });

  it('are for contexts of this origin only: not for its plain fetches, nor for other origins', () => {
    expect(startsContext(new Request('https://app.example/data.json'), 'https://app.example')).toBe(false);
    expect(startsContext(new Request('https://cdn.example/page'), 'https://app.example')).toBe(false);
  });
});
