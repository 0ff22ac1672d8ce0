/**
 * A Responses `input_image` part (issue 32; the route still refuses it): its `image_url` (a
 * data: URL or an http(s) URL, a string in this API, not an object as in chat) read as a chat
 * part's `image_url.url` is (media-source.ts). `file_id` needs OpenAI's file store, which a page
 * has none of: a 400 naming it. `detail` changes nothing here (llama.cpp's projectors have one
 * resolution).
 */
import { InvalidRequestError } from '#core/domain/errors';
import { mediaSource } from '#core/media/media-source';
import type { MediaPart } from '../../conversation/media-content';
import { typeError } from '../../conversation/validate-chat-tools';

/** The media part of the `input_image` part at `at` (`input[i].content[j]`). */
export function inputImagePart(part: Record<string, unknown>, at: string): MediaPart {
  if (part.file_id != null) {
    throw new InvalidRequestError(
      `'${at}.file_id' is not supported here: give the image as 'image_url'.`,
      `${at}.file_id`,
    );
  }
  if (typeof part.image_url !== 'string') throw typeError(`${at}.image_url`, 'a string', part.image_url);
  if (part.detail != null && !['auto', 'low', 'high'].includes(String(part.detail))) {
    throw new InvalidRequestError(
      `Invalid value for '${at}.detail': supported values are 'auto', 'low' and 'high'.`,
      `${at}.detail`,
    );
  }
  return { source: mediaSource(part.image_url, at), kind: 'image', param: at };
}
