/**
 * Who may use the endpoint: the pages of this origin. Another origin's `fetch` never reaches
 * this SW, but another origin can navigate to `/v1/...` (a link, or a `text/plain` form whose
 * body happens to be valid JSON) and the SW sees that navigation. Such callers are refused
 * here, before any page or engine is asked: a cross-site caller is a 403, and a POST that is
 * not a fetch of this origin's pages (a navigation, a `no-cors` request) must be
 * `application/json` (which no form can send), else 415.
 */
import { PermissionDeniedError, UnsupportedMediaTypeError } from '#core/domain/errors';

/** What the check reads of a request. */
export type CallerRequest = Pick<Request, 'headers' | 'method' | 'mode' | 'referrer'>;

export function checkCaller(request: CallerRequest, origin: string): void {
  // Where the browser shows them to the SW: what the request's initiator was.
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') throw forbidden(`Sec-Fetch-Site is ${site}`);
  const from = request.headers.get('origin');
  if (from !== null && from !== 'null' && from !== origin) throw forbidden(`it comes from ${from}`);
  if (from === 'null') throw forbidden('it comes from an opaque origin');
  // A cors or same-origin fetch reaching this SW was made by one of this origin's pages.
  if (request.mode !== 'navigate' && request.mode !== 'no-cors') return;
  const referrer = originOf(request.referrer);
  if (referrer !== null && referrer !== origin) throw forbidden(`it was started by ${referrer}`);
  if (request.method === 'GET') return; // the address bar, or a same-origin link: reads only
  if (referrer === null) throw forbidden('a navigation of unknown origin posts to it');
  if (!isJson(request.headers.get('content-type'))) {
    throw new UnsupportedMediaTypeError(
      "Send the request body as JSON with 'Content-Type: application/json' (a form post cannot).",
    );
  }
}

function forbidden(why: string): PermissionDeniedError {
  return new PermissionDeniedError(
    `This endpoint answers the pages of its own origin only: the request was refused because ${why}.`,
  );
}

function originOf(url: string): string | null {
  if (url === '' || url === 'about:client') return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function isJson(contentType: string | null): boolean {
  return contentType !== null && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType.trim());
}
