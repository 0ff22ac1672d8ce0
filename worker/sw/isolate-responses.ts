/**
 * With `?isolate=<mode>` on the SW's registration URL (`#core/domain/isolation`), the origin's
 * documents and worker scripts are served with COOP/COEP, whether they come from the precache
 * or the network: the page's next load is then cross-origin isolated, and so are the workers it
 * starts (a dedicated worker's own script response carries its COEP). Cross-origin requests and
 * opaque answers pass untouched: their headers cannot be rewritten, and they need none.
 */
import { isolationHeaders, type IsolationMode } from '#core/domain/isolation';

/** Request destinations whose response decides a context's isolation. */
const CONTEXTS = new Set<RequestDestination>(['document', 'iframe', 'worker', 'sharedworker']);

/** Whether `request` loads a document or worker of this origin (the answers that carry COOP/COEP). */
export function startsContext(request: Request, origin: string): boolean {
  return new URL(request.url).origin === origin && (request.mode === 'navigate' || CONTEXTS.has(request.destination));
}

/** `response` with the isolation headers set (a new response over the same body). */
export function isolated(response: Response, mode: IsolationMode): Response {
  // Opaque and opaque-redirect answers (status 0) keep their headers to themselves.
  if (response.type === 'opaque' || response.type === 'opaqueredirect' || response.status === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(isolationHeaders(mode))) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
