import { describe, expect, it } from 'vitest';
import { OpenAIError } from '../../../../src/core/domain/errors';
import { checkCaller, type CallerRequest } from '../../../../worker/sw/check-caller';

const ORIGIN = 'http://127.0.0.1:5173';

function caller(mode: RequestMode, method: string, headers: Record<string, string> = {}, referrer = ''): CallerRequest {
  return { mode, method, referrer, headers: new Headers(headers) };
}

/** The status the check refuses with, or 0 when it lets the request through. */
function status(request: CallerRequest): number {
  try {
    checkCaller(request, ORIGIN);
    return 0;
  } catch (error) {
    if (error instanceof OpenAIError) return error.status;
    throw error;
  }
}

describe('checkCaller', () => {
  it("lets this origin's fetches through, JSON or not (the SDK, a plain fetch with a string body)", () => {
    expect(status(caller('cors', 'POST', { 'content-type': 'application/json' }))).toBe(0);
    expect(status(caller('same-origin', 'POST', { 'content-type': 'text/plain;charset=UTF-8' }))).toBe(0);
    expect(status(caller('cors', 'POST', { origin: ORIGIN, 'sec-fetch-site': 'same-origin' }))).toBe(0);
    expect(status(caller('cors', 'GET'))).toBe(0);
  });

  it('refuses another origin or site, whatever the mode (403)', () => {
    expect(status(caller('cors', 'POST', { origin: 'http://localhost:5173' }))).toBe(403);
    expect(status(caller('cors', 'POST', { origin: 'null' }))).toBe(403);
    expect(status(caller('navigate', 'GET', { 'sec-fetch-site': 'cross-site' }))).toBe(403);
    expect(status(caller('cors', 'POST', { 'sec-fetch-site': 'same-site' }))).toBe(403);
  });

  it('refuses a cross-origin form post (403), whatever its content type', () => {
    expect(
      status(caller('navigate', 'POST', { 'content-type': 'text/plain' }, 'http://localhost:5173/evil.html')),
    ).toBe(403);
    expect(status(caller('navigate', 'POST', { 'content-type': 'application/json' }, 'https://evil.example/'))).toBe(
      403,
    );
    // No referrer (referrerpolicy=no-referrer): the initiator is unknown.
    expect(status(caller('navigate', 'POST', { 'content-type': 'text/plain' }))).toBe(403);
  });

  it('refuses a same-origin form post or no-cors post that is not JSON (415)', () => {
    expect(status(caller('navigate', 'POST', { 'content-type': 'text/plain' }, `${ORIGIN}/form.html`))).toBe(415);
    expect(
      status(caller('navigate', 'POST', { 'content-type': 'application/x-www-form-urlencoded' }, `${ORIGIN}/`)),
    ).toBe(415);
    expect(status(caller('no-cors', 'POST', { 'content-type': 'text/plain' }, `${ORIGIN}/`))).toBe(415);
    expect(status(caller('no-cors', 'POST', { 'content-type': 'application/json; charset=utf-8' }, `${ORIGIN}/`))).toBe(
      0,
    );
  });

  it('lets a same-origin or typed-in GET navigation read (the address bar), not a cross-origin one', () => {
    expect(status(caller('navigate', 'GET', {}, ''))).toBe(0);
    expect(status(caller('navigate', 'GET', {}, `${ORIGIN}/`))).toBe(0);
    expect(status(caller('navigate', 'GET', { 'sec-fetch-site': 'none' }))).toBe(0);
    expect(status(caller('navigate', 'GET', {}, 'https://evil.example/'))).toBe(403);
  });
});
