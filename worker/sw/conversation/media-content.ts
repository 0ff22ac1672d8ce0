/**
 * A user message's content with media parts (issue 32), flattened as llama-server flattens it
 * (tools/server's oaicompat_chat_params_parse, then common/chat.cpp's concat_content_parts):
 * each `image_url` or `input_audio` part becomes the media marker in the text, and the parts
 * are joined with '\n' except next to a marker (none before or after one). The media go out in
 * the order of their markers, each with where it came from (the part, for a 400 naming it).
 * Text-only content stays with `flattenContent`; a request without a projector never gets here.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { describeValue } from '#core/openai/describe-value';
import { mediaSource, type MediaSource } from '#core/media/media-source';
import type { MediaKind } from '#core/media/media-kind';
import { isRecord } from '#core/util/is-record';

/**
 * One media part: its bytes or URL, what its type says it is (the model must read that
 * modality, as llama-server checks it), and its place in the request (`messages[i].content[j]`).
 */
export interface MediaPart {
  readonly source: MediaSource;
  readonly kind: MediaKind;
  readonly param: string;
}

const MEDIA_FIELDS = { image_url: 'url', input_audio: 'data' } as const;

/** Whether `part` is an image or audio part (`image_url`, `input_audio`). */
export const isMediaPart = (part: unknown): part is Record<string, unknown> & { type: keyof typeof MEDIA_FIELDS } =>
  isRecord(part) && typeof part.type === 'string' && Object.hasOwn(MEDIA_FIELDS, part.type);

/** The text, with `marker` where each media part was, and the parts in that order. */
export function flattenMediaContent(
  content: unknown,
  param: string,
  marker: string,
): { text: string; media: MediaPart[] } {
  if (typeof content === 'string') return { text: content, media: [] };
  if (!Array.isArray(content)) {
    throw new InvalidRequestError(
      `Invalid type for '${param}': expected a string or an array of content parts, but got ${describeValue(content)} instead.`,
      param,
    );
  }
  const pieces: Array<string | null> = [];
  const media: MediaPart[] = [];
  content.forEach((part, i) => {
    const at = `${param}[${i}]`;
    if (!isRecord(part)) {
      throw new InvalidRequestError(
        `Invalid type for '${at}': expected an object, but got ${describeValue(part)} instead.`,
        at,
      );
    }
    if (part.type === 'text') {
      if (typeof part.text !== 'string')
        throw new InvalidRequestError(`Invalid type for '${at}.text': expected a string.`, at);
      pieces.push(part.text);
      return;
    }
    if (!isMediaPart(part)) {
      throw new InvalidRequestError(
        `Invalid content part type in '${param}': ${typeof part.type === 'string' ? `'${part.type}'` : describeValue(part.type)} is not supported here; supported: 'text', 'image_url', 'input_audio'.`,
        at,
      );
    }
    const kind = part.type === 'image_url' ? 'image' : 'audio';
    media.push({ source: mediaSource(mediaField(part, part.type, at), at), kind, param: at });
    pieces.push(null);
  });
  return { text: joinMediaPieces(pieces, marker), media };
}

/** Texts and media items (null) as one text: `marker` for each item, '\n' between texts but not next to a marker. */
export function joinMediaPieces(pieces: ReadonlyArray<string | null>, marker: string): string {
  let text = '';
  let afterMarker = false;
  for (const piece of pieces) {
    if (piece === null) {
      text += marker;
      afterMarker = true;
      continue;
    }
    text += (afterMarker || text === '' ? '' : '\n') + piece;
    afterMarker = false;
  }
  return text;
}

/** `image_url.url` or `input_audio.data` (llama-server also reads `input_audio.url`). */
function mediaField(part: Record<string, unknown>, type: keyof typeof MEDIA_FIELDS, at: string): string {
  const body = part[type];
  const field = `${at}.${type}.${MEDIA_FIELDS[type]}`;
  if (!isRecord(body)) throw new InvalidRequestError(`Invalid type for '${at}.${type}': expected an object.`, at);
  const value = body[MEDIA_FIELDS[type]] ?? (type === 'input_audio' ? body.url : undefined);
  if (typeof value !== 'string') throw new InvalidRequestError(`Invalid type for '${field}': expected a string.`, at);
  return value;
}
