/**
 * Which answer a request gets. Under the route prefix every request is the endpoint's: the
 * caller is checked first (`checkCaller`), then a route of the table answers, or a 405 (a known
 * path, another method; with `Allow`) or 404 (an unknown path). Whatever the handler throws is
 * answered in the dialect of the route (for 404s and 405s: of the route nearest the path, else
 * OpenAI's). Beside the prefix, the paths of dialect routes (llama-server's `/tokenize`) are
 * answered the same way; elsewhere only a table route (the lazily cached chunk) answers, and
 * everything else goes to the network untouched (undefined).
 */
import { MethodNotAllowedError, NotFoundError, toOpenAIError } from '#core/domain/errors';
import { checkCaller } from './check-caller';
import { errorResponse } from './dialect/dialect';
import { OPENAI_DIALECT } from './dialect/openai-dialect';
import { allowedMethods, findRoute, nearestRoute, type Route } from './route';

export function dispatch(
  routes: readonly Route[],
  request: Request,
  origin: string,
  prefix: string,
): Route['handle'] | undefined {
  const url = new URL(request.url);
  const route = findRoute(routes, request, origin);
  const inPrefix = url.origin === origin && (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`));
  // Beside the prefix, the paths of routes with a dialect (llama-server's `/tokenize`) are the endpoint's too.
  const endpoint = inPrefix || (url.origin === origin && allowedMethods(apiRoutes(routes), url.pathname).length > 0);
  if (!endpoint && !route) return undefined;
  const dialect = (route ?? nearestRoute(routes, url.pathname))?.dialect ?? OPENAI_DIALECT;
  const answer = async (event: Parameters<Route['handle']>[0]) => {
    // Outside the endpoint's paths a route is a static asset (the lazily cached chunk).
    if (!endpoint && route) return route.handle(event);
    checkCaller(event.request, origin);
    if (route) return route.handle(event);
    const allow = allowedMethods(inPrefix ? routes : apiRoutes(routes), url.pathname);
    if (allow.length > 0) {
      throw new MethodNotAllowedError(
        `Method ${request.method} is not allowed for ${url.pathname}: use ${allow.join(' or ')}.`,
        allow,
      );
    }
    throw new NotFoundError(`Unknown request URL: ${request.method} ${url.pathname}.`, null, 'unknown_url');
  };
  return (event) => answer(event).catch((error: unknown) => errorResponse(dialect, toOpenAIError(error)));
}

/** The routes of an API dialect (not the static assets the SW also serves). */
const apiRoutes = (routes: readonly Route[]) => routes.filter((route) => route.dialect !== undefined);
