/**
 * An Anthropic `image` block's source (issue 32; the route still refuses images), converted as
 * llama.cpp's server converts it (server_chat_convert_anthropic_to_oai): `base64` with its
 * `media_type` (llama-server's default `image/jpeg` when absent) becomes a data: URL, `url` the
 * URL; then the same reading as a chat part's `image_url` (media-source.ts). Anthropic takes
 * JPEG, PNG, GIF and WebP; another `media_type`, or another source type (`file`), is a 400
 * naming the block's source.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { mediaSource } from '#core/media/media-source';
import { isRecord } from '#core/util/is-record';
import type { MediaPart } from '../../conversation/media-content';
import { typeError } from '../../conversation/validate-chat-tools';

const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** The media part of the `image` block at `at` (`messages[i].content[j]`). */
export function imageBlockPart(block: Record<string, unknown>, at: string): MediaPart {
  const source = block.source;
  if (!isRecord(source)) throw typeError(`${at}.source`, 'an object', source);
  if (source.type === 'base64') {
    const mediaType = source.media_type ?? 'image/jpeg';
    if (typeof mediaType !== 'string' || !MEDIA_TYPES.includes(mediaType)) {
      throw new InvalidRequestError(
        `${at}.source.media_type: Input should be ${MEDIA_TYPES.map((t) => `'${t}'`).join(', ')}.`,
        `${at}.source.media_type`,
      );
    }
    if (typeof source.data !== 'string') throw typeError(`${at}.source.data`, 'a string', source.data);
    return { source: mediaSource(`data:${mediaType};base64,${source.data}`, at), kind: 'image', param: at };
  }
  if (source.type === 'url') {
    if (typeof source.url !== 'string') throw typeError(`${at}.source.url`, 'a string', source.url);
    return { source: mediaSource(source.url, at), kind: 'image', param: at };
  }
  throw new InvalidRequestError(`${at}.source.type: Input should be 'base64' or 'url'.`, `${at}.source.type`);
}
