import { InvalidRequestError } from './errors';

/** Where the endpoint answers unless told otherwise: `/v1/completions`, `/v1/models`. */
export const DEFAULT_ROUTE_PREFIX = '/v1';

/**
 * A route prefix as the Service Worker matches it: an absolute path, no trailing slash
 * (`'api/v1/'` -> `'/api/v1'`). Throws for anything that is not a plain path.
 */
export function normalizeRoutePrefix(value: string): string {
  const path = `/${value.trim().replace(/^\/+|\/+$/g, '')}`;
  if (path === '/' || !/^(\/[A-Za-z0-9._~-]+)+$/.test(path)) {
    throw new InvalidRequestError(
      `'${value}' is not a route prefix: use a path such as /v1 or /api/v1.`,
      'routePrefix',
    );
  }
  return path;
}

/**
 * The Service Worker script URL that tells the worker its prefix (`sw.js?prefix=/api/v1`); a
 * Service Worker is a static file, so its one input is the URL it was registered with.
 */
export function withRoutePrefix(scriptUrl: string, prefix: string, base: string): string {
  const url = new URL(scriptUrl, base);
  if (prefix === DEFAULT_ROUTE_PREFIX) url.searchParams.delete('prefix');
  else url.searchParams.set('prefix', prefix);
  return url.href;
}

/** The prefix a Service Worker was registered with (from its own script URL). */
export function routePrefixOf(scriptUrl: string): string {
  const prefix = new URL(scriptUrl).searchParams.get('prefix');
  return prefix === null ? DEFAULT_ROUTE_PREFIX : normalizeRoutePrefix(prefix);
}

/** The parent of a prefix, where llama-server's own routes live beside it (`/v1` -> ``, `/api/v1` -> `/api`). */
export function prefixParent(prefix: string): string {
  return prefix.slice(0, prefix.lastIndexOf('/'));
}
