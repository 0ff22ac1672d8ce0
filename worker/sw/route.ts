import type { Dialect } from './dialect/dialect';

/** What a route handler reads of a `FetchEvent`. */
export interface RouteEvent {
  readonly request: Request;
  readonly clientId: string;
}

/**
 * A route: a method + path under the SW's origin, and the handler that answers it. The path
 * is exact, or ends in `/*` for exactly one more non-empty segment (`/v1/models/*`), or is a
 * test of the pathname (the lazily cached WebLLM chunk).
 */
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string | ((pathname: string) => boolean);
  /** The API dialect of its key header and error JSON (absent: OpenAI's). */
  dialect?: Dialect;
  /** Its answer; what it throws is answered as its dialect's error. */
  handle(event: RouteEvent): Promise<Response>;
}

/**
 * The route that `request` hits, or undefined: then the SW does not call `respondWith`
 * and the request goes to the network untouched.
 */
export function findRoute(routes: readonly Route[], request: Request, origin: string): Route | undefined {
  const url = new URL(request.url);
  if (url.origin !== origin) return undefined;
  return routes.find((route) => route.method === request.method && matchesPath(route.path, url.pathname));
}

/** The methods the routes take at `pathname` (empty: no route has that path). */
export function allowedMethods(routes: readonly Route[], pathname: string): Array<Route['method']> {
  return [...new Set(routes.filter((route) => matchesPath(route.path, pathname)).map((route) => route.method))];
}

function matchesPath(pattern: Route['path'], pathname: string): boolean {
  if (typeof pattern === 'function') return pattern(pathname);
  if (!pattern.endsWith('/*')) return pattern === pathname;
  const base = pattern.slice(0, -1);
  const rest = pathname.slice(base.length);
  return pathname.startsWith(base) && rest.length > 0 && !rest.includes('/');
}

/**
 * The route whose path shares the most leading segments with `pathname` (its dialect answers
 * an unknown path or a wrong method there: `/v1/messages/x` is Anthropic's 404); undefined if none shares one.
 */
export function nearestRoute(routes: readonly Route[], pathname: string): Route | undefined {
  const segments = pathname.split('/');
  let best: { route: Route; shared: number } | undefined;
  for (const route of routes) {
    if (typeof route.path !== 'string') continue;
    const theirs = route.path.split('/');
    let shared = 0;
    while (shared < segments.length && shared < theirs.length && segments[shared] === theirs[shared]) shared++;
    if (shared > (best?.shared ?? 0)) best = { route, shared };
  }
  return best?.route;
}
