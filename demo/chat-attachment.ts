/**
 * A file attached to a Chat tab message (an image or a sound, held as base64) and its parts on
 * each endpoint: `/v1/chat/completions` `image_url` / `input_audio`, `/v1/responses`
 * `input_image` / `input_audio`, Anthropic `/v1/messages` `image` blocks. Audio has no Messages
 * block: that body leaves it out.
 */

/** The audio formats `input_audio` names. */
export type AudioFormat = 'wav' | 'mp3';

export type ChatAttachment =
  | { kind: 'image'; name: string; mediaType: string; data: string }
  | { kind: 'audio'; name: string; mediaType: string; data: string; format: AudioFormat };

/** A `/v1/chat/completions` user content part. */
export type ChatContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: AudioFormat } };

/** The attachment as a `data:` URL (an image's `src`, an audio element's, an `image_url`). */
export function dataUrl(attachment: ChatAttachment): string {
  return `data:${attachment.mediaType};base64,${attachment.data}`;
}

/** `input_audio`'s format for a sound file, from its type or else its name; null for others. */
export function audioFormat(mediaType: string, name: string): AudioFormat | null {
  const type = mediaType.toLowerCase();
  if (['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'].includes(type)) return 'wav';
  if (['audio/mpeg', 'audio/mp3', 'audio/mpeg3', 'audio/x-mpeg-3'].includes(type)) return 'mp3';
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return extension === 'wav' ? 'wav' : extension === 'mp3' ? 'mp3' : null;
}

/** A sound as an `input_audio` part (the same on `/v1/chat/completions` and `/v1/responses`). */
const inputAudio = (
  attachment: ChatAttachment & { kind: 'audio' },
): Extract<ChatContentPart, { type: 'input_audio' }> => ({
  type: 'input_audio',
  input_audio: { data: attachment.data, format: attachment.format },
});

/** The chat content of a user turn: the text (when not blank), then one part per attachment. */
export function chatParts(text: string, attachments: readonly ChatAttachment[]): ChatContentPart[] {
  const parts: ChatContentPart[] = text.trim() === '' ? [] : [{ type: 'text', text }];
  for (const attachment of attachments)
    parts.push(
      attachment.kind === 'image'
        ? { type: 'image_url', image_url: { url: dataUrl(attachment) } }
        : inputAudio(attachment),
    );
  return parts;
}

/** The same for `/v1/responses`: `input_text`, then `input_image` and `input_audio` parts. */
export function responsesParts(text: string, attachments: readonly ChatAttachment[]): Record<string, unknown>[] {
  const parts: Record<string, unknown>[] = text.trim() === '' ? [] : [{ type: 'input_text', text }];
  for (const attachment of attachments)
    parts.push(
      attachment.kind === 'image' ? { type: 'input_image', image_url: dataUrl(attachment) } : inputAudio(attachment),
    );
  return parts;
}

/** The same for Anthropic's `/v1/messages`: `text`, then base64 `image` blocks (it has no audio block). */
export function messagesParts(text: string, attachments: readonly ChatAttachment[]): Record<string, unknown>[] {
  const parts: Record<string, unknown>[] = text.trim() === '' ? [] : [{ type: 'text', text }];
  for (const attachment of attachments)
    if (attachment.kind === 'image')
      parts.push({
        type: 'image',
        source: { type: 'base64', media_type: attachment.mediaType, data: attachment.data },
      });
  return parts;
}
