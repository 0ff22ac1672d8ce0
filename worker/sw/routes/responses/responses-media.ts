/**
 * A Responses `input_image` part (issue 32): its `image_url` (a data: URL or an http(s) URL, a
 * string in this API, not an object as in chat) read as a chat part's `image_url.url` is
 * (media-source.ts). `file_id` needs OpenAI's file store, which a page has none of: a 400 naming
 * it. `detail` changes nothing here (llama.cpp's projectors have one resolution). An
 * `input_audio` part (`{ data, format }`: base64 WAV or MP3) is read as chat's. An `input_file`
 * part is OpenAI's way to send a file: here it takes an image or a sound (`file_data`, a data: URL
 * or base64; or `file_url`), which reach the projector as the other two parts' do; llama-server
 * 0.7.0 refuses every `input_file` ('input_file' is not supported by llamacpp at this moment).
 */
import { InvalidRequestError } from '#core/domain/errors';
import { asciiAt } from '#core/media/ascii-at';
import { mediaKind } from '#core/media/media-kind';
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

/**
 * The media part of the `input_file` part at `at`: its `file_data` (what the bytes are says image
 * or sound, as mtmd decides) or `file_url` (http(s): a sound by its name's extension, WAV, MP3 or
 * FLAC, an image otherwise; the engine reads the bytes again). `file_id` needs OpenAI's file
 * store, and a PDF (OpenAI's other files) a reader this engine has none of: 400s naming the part.
 */
export function inputFilePart(part: Record<string, unknown>, at: string): MediaPart {
  if (part.file_id != null) {
    throw new InvalidRequestError(
      `'${at}.file_id' is not supported here: give the file as 'file_data' or 'file_url'.`,
      `${at}.file_id`,
    );
  }
  const field = part.file_data != null ? 'file_data' : 'file_url';
  const value = part[field];
  if (typeof value !== 'string') throw typeError(`${at}.${field}`, 'a string', value);
  if (field === 'file_url' && !/^https?:\/\//i.test(value))
    throw new InvalidRequestError(`Invalid URL in '${at}.file_url': an http(s) URL is expected.`, `${at}.file_url`);
  const source = mediaSource(value, at);
  if (source.kind === 'url') {
    const audio = /\.(wav|mp3|flac)([?#]|$)/i.test(new URL(value).pathname);
    return { source, kind: audio ? 'audio' : 'image', param: at };
  }
  if (asciiAt(source.bytes, 0, '%PDF-')) {
    throw new InvalidRequestError(
      `'${at}' is a PDF: files are read here as images or sounds (WAV, MP3, FLAC) for the model's projector.`,
      at,
    );
  }
  return { source, kind: mediaKind(source.bytes), param: at };
}
