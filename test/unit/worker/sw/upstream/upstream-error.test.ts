import { describe, expect, it } from 'vitest';
import { upstreamError } from '../../../../../worker/sw/upstream/upstream-error';

describe('upstreamError', () => {
  it("keeps an OpenAI-shaped error's fields and its status, naming the upstream", async () => {
    const body = {
      error: { message: 'bad temperature', type: 'invalid_request_error', param: 'temperature', code: 'invalid_value' },
    };
    const error = await upstreamError('srv', new Response(JSON.stringify(body), { status: 400 }));
    expect(error.status).toBe(400);
    expect(error.toBody()).toEqual({
      error: {
        message: "Upstream 'srv' answered 400: bad temperature",
        type: 'invalid_request_error',
        param: 'temperature',
        code: 'invalid_value',
      },
    });
  });

  it("drops llama-server's numeric code, and reads a body that is not JSON as text", async () => {
    const llama = { error: { code: 500, message: 'slot unavailable', type: 'server_error' } };
    const error = await upstreamError('a', new Response(JSON.stringify(llama), { status: 500 }));
    expect([error.status, error.type, error.code, error.message]).toEqual([
      500,
      'server_error',
      'upstream_error',
      "Upstream 'a' answered 500: slot unavailable",
    ]);
    const text = await upstreamError('b', new Response('Bad Gateway', { status: 502 }));
    expect([text.status, text.type, text.message]).toEqual([
      502,
      'server_error',
      "Upstream 'b' answered 502: Bad Gateway",
    ]);
  });
});
