/**
 * A Responses `input_image` part (issue 32): its `image_url` (a data: URL or an http(s) URL, a
 * string in this API, not an object as in chat) read as a chat part's `image_url.url` is
 * (media-source.ts). `file_id` needs OpenAI's file store, which a page has none of: a 400 naming
 * it. `detail` changes nothing here (llama.cpp's projectors have one resolution). An
 * `input_audio` part (`{ data, format }`: base64 WAV or MP3) is read as chat's.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { mediaSource } from '#core/media/media-source';
import { isRecord } from '#core/util/is-record';
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

/** The media part of the `input_audio` part at `at`: its base64 `data` (the bytes say WAV or MP3). */
export function inputAudioPart(part: Record<string, unknown>, at: string): MediaPart {
  const audio = part.input_audio;
  if (!isRecord(audio)) throw typeError(`${at}.input_audio`, 'an object', audio);
  if (typeof audio.data !== 'string') throw typeError(`${at}.input_audio.data`, 'a string', audio.data);
  if (audio.format != null && audio.format !== 'wav' && audio.format !== 'mp3') {
    throw new InvalidRequestError(
      `Invalid value for '${at}.input_audio.format': supported values are 'wav' and 'mp3'.`,
      `${at}.input_audio.format`,
    );
  }
  return { source: mediaSource(audio.data, at), kind: 'audio', param: at };
}
