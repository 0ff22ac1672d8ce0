/**
 * The route table's JSON schema (valibot): named `upstreams` (remote OpenAI-compatible servers)
 * and `routes` (a public model id -> ordered targets, each `device` or an upstream's name, with
 * its options). The types are derived from the schema, so the two cannot drift.
 */
import * as v from 'valibot';

/** The reserved target name of the in-page engine running the page's model. */
export const DEVICE_TARGET = 'device';

/** The route id that takes any `model` no other route and no engine serves (a client's fixed name, `gpt-3.5-turbo`). */
export const ANY_MODEL_ROUTE = '*';

/** What a request may need that an upstream must declare before `require_parameters` sends it there. */
export const UPSTREAM_FEATURES = ['logprobs', 'grammar', 'token_prompt'] as const;
export type UpstreamFeature = (typeof UPSTREAM_FEATURES)[number];

/** Which failures move a request on to the route's next target (`fallbackOn`; default: all of them). */
export const FALLBACK_CAUSES = ['unreachable', 'timeout', 'server_error', 'rate_limited', 'configuration'] as const;
export type FallbackCause = (typeof FALLBACK_CAUSES)[number];

const name = v.pipe(v.string(), v.minLength(1), v.maxLength(128));
const httpUrl = v.pipe(
  v.string(),
  v.url('must be an absolute URL'),
  v.check((url) => /^https?:\/\//i.test(url), 'must be an http(s) URL'),
);
const timeoutMs = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(600_000));

export const upstreamSchema = v.strictObject({
  /** The server's OpenAI base URL, `/v1` included (`http://127.0.0.1:8080/v1`). */
  baseURL: httpUrl,
  /** The model id this upstream is asked for (each upstream receives its own). */
  model: name,
  /** Extra request headers (`authorization`, ...); they stay in the Service Worker, never echoed. */
  headers: v.optional(
    v.record(v.pipe(v.string(), v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'is not a header name')), v.string()),
  ),
  /** Shorthand for `headers.authorization = 'Bearer <apiKey>'`. */
  apiKey: v.optional(v.string()),
  /** What it honours beyond plain sampling, for `require_parameters` (default: none declared). */
  supports: v.optional(v.array(v.picklist(UPSTREAM_FEATURES))),
});

export const paramPolicySchema = v.strictObject({
  /** Set when the request leaves them out. */
  defaults: v.optional(v.record(v.string(), v.unknown())),
  /** Always set, whatever the request says. */
  overrides: v.optional(v.record(v.string(), v.unknown())),
  /** A request that carries one of these is a 400 naming it. */
  deny: v.optional(v.array(v.string())),
});

export const routeSchema = v.strictObject({
  /** Tried in order: `device` or an upstream's name. */
  targets: v.pipe(v.array(name), v.minLength(1, 'needs at least one target')),
  /** `round-robin` spreads the requests over its upstream targets (default `order`). */
  balance: v.optional(v.picklist(['order', 'round-robin'])),
  /** How long an upstream may take to answer (its headers) before the next target is tried. */
  timeoutMs: v.optional(timeoutMs),
  /** Which failures move on to the next target (default: every cause). */
  fallbackOn: v.optional(v.array(v.picklist(FALLBACK_CAUSES))),
  params: v.optional(paramPolicySchema),
});

export const routeTableSchema = v.strictObject({
  upstreams: v.optional(v.record(name, upstreamSchema)),
  routes: v.record(name, routeSchema),
});

export type UpstreamConfig = v.InferOutput<typeof upstreamSchema>;
export type RouteConfig = v.InferOutput<typeof routeSchema>;
export type ParamPolicy = v.InferOutput<typeof paramPolicySchema>;
export type RouteTable = v.InferOutput<typeof routeTableSchema>;
