/**
 * A request body for display: the base64 of its media (an `image_url`'s or `input_image`'s
 * `data:` URL, `input_audio`'s or an Anthropic image block's `data`) cut to its first 32
 * characters and '…'. The code stays valid; the request sent carries the whole data.
 */
import type { EndpointBody } from './request-code';

/** How much of a base64 payload the code panel shows. */
export const SHOWN_BASE64 = 32;

/** The keys whose string values are media: a `data:` URL or bare base64. */
const MEDIA_KEYS = new Set(['url', 'image_url', 'data']);

export function abbreviateMedia(body: EndpointBody): EndpointBody {
  const out: EndpointBody = { model: body.model };
  for (const [key, value] of Object.entries(body)) out[key] = abbreviate(key, value);
  return out;
}

function abbreviate(key: string, value: unknown): unknown {
  if (typeof value === 'string') return MEDIA_KEYS.has(key) ? shorten(value) : value;
  if (Array.isArray(value)) return value.map((item) => abbreviate('', item));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, abbreviate(name, item)]));
}

/** A `data:` URL's payload or bare base64, when longer than shown, cut with '…'. */
export function shorten(value: string): string {
  const comma = value.startsWith('data:') ? value.indexOf(',') + 1 : 0;
  const payload = value.slice(comma);
  if (payload.length <= SHOWN_BASE64 + 1 || !/^[A-Za-z0-9+/=_-]+$/.test(payload)) return value;
  return `${value.slice(0, comma)}${payload.slice(0, SHOWN_BASE64)}…`;
}
