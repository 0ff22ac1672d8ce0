/** What a route handler reads of a `FetchEvent`. */
export interface RouteEvent {
  readonly request: Request;
  readonly clientId: string;
}

/** A route: an exact method + path under the SW's origin, and the handler that answers it. */
export interface Route {
  method: 'GET' | 'POST';
  path: string;
  handle(event: RouteEvent): Promise<Response>;
}

/**
 * The route that `request` hits, or undefined: then the SW does not call `respondWith`
 * and the request goes to the network untouched.
 */
export function findRoute(routes: readonly Route[], request: Request, origin: string): Route | undefined {
  const url = new URL(request.url);
  if (url.origin !== origin) return undefined;
  return routes.find((route) => route.method === request.method && route.path === url.pathname);
}
