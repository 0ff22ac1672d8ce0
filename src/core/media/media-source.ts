/**
 * Where a media part's bytes come from (issue 32), read as llama-server reads an `image_url.url`
 * or `input_audio.data` (tools/server's `handle_media`): a `data:` URL of an image, audio or
 * video type in base64, a bare base64 string, or an http(s) URL to fetch. `file://` URLs are
 * refused (llama-server takes them only under `--media-path`, and a page has no such folder).
 * Each refusal is a 400 naming the part, with llama-server's text.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { decodeBase64 } from './base64';

/** The bytes are in the request, or at a URL to fetch first. */
export type MediaSource =
  { readonly kind: 'bytes'; readonly bytes: Uint8Array } | { readonly kind: 'url'; readonly url: string };

/** Reads `value` (the part's URL or data field at `param`). */
export function mediaSource(value: string, param: string): MediaSource {
  if (value.startsWith('http')) {
    if (!/^https?:\/\//i.test(value) || !URL.canParse(value))
      throw new InvalidRequestError(`Invalid URL in '${param}'.`, param);
    return { kind: 'url', url: value };
  }
  if (value.startsWith('file://')) throw new InvalidRequestError(`file:// URLs are not allowed ('${param}').`, param);
  if (value.startsWith('data:')) return { kind: 'bytes', bytes: dataUrlBytes(value, param) };
  return { kind: 'bytes', bytes: base64Bytes(value, param) };
}

function dataUrlBytes(url: string, param: string): Uint8Array {
  const parts = url.split(',');
  const [head, data] = parts;
  if (parts.length !== 2 || head === undefined || data === undefined)
    throw new InvalidRequestError(`Invalid uri-encoded base64 value in '${param}'.`, param);
  if (!/^data:(image|video|audio)\//.test(head)) throw new InvalidRequestError(`Invalid uri format: ${head}`, param);
  if (!head.endsWith('base64')) throw new InvalidRequestError(`uri must be base64 encoded ('${param}').`, param);
  return base64Bytes(data, param);
}

/** Base64 that holds at least one byte; anything else is llama-server's "Invalid base64 value" (a 400 naming `param`). */
export function base64Bytes(text: string, param: string): Uint8Array {
  const bytes = decodeBase64(text);
  if (!bytes || bytes.length === 0) throw new InvalidRequestError(`Invalid base64 value in '${param}'.`, param);
  return bytes;
}
