/**
 * Which answer a request gets. Under the route prefix every request is the endpoint's: the
 * caller is checked first (`checkCaller`), then a route of the table answers, or an
 * OpenAI-shaped 405 (a known path, another method; with `Allow`) or 404 (an unknown path).
 * Outside the prefix only a table route (the lazily cached chunk) answers; everything else
 * goes to the network untouched (undefined).
 */
import { MethodNotAllowedError, NotFoundError } from '#core/errors';
import { checkCaller } from './check-caller';
import { allowedMethods, findRoute, type Route } from './route';

export function dispatch(
  routes: readonly Route[],
  request: Request,
  origin: string,
  prefix: string,
): Route['handle'] | undefined {
  const url = new URL(request.url);
  const route = findRoute(routes, request, origin);
  if (url.origin !== origin || !(url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)))
    return route?.handle;
  return async (event) => {
    checkCaller(event.request, origin);
    if (route) return route.handle(event);
    const allow = allowedMethods(routes, url.pathname);
    if (allow.length > 0) {
      throw new MethodNotAllowedError(
        `Method ${request.method} is not allowed for ${url.pathname}: use ${allow.join(' or ')}.`,
        allow,
      );
    }
    throw new NotFoundError(`Unknown request URL: ${request.method} ${url.pathname}.`, null, 'unknown_url');
  };
}
