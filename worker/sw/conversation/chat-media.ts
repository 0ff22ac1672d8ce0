/**
 * A chat request's images and audio (issue 32): its media parts in the order of their markers in
 * the messages' text, and that marker. The marker is made for the request (random), so no text a
 * request sends can stand for a media item; the engine puts its model's marker (llama-server's
 * `media_marker`) in its place after rendering the conversation.
 */
import type { PromptMedia } from '#core/domain/generation';
import { engineReadableImage } from './browser-image';
import { mediaBytes } from './media-bytes';
import type { MediaPart } from './media-content';

export interface ChatMedia {
  readonly marker: string;
  readonly parts: MediaPart[];
}

/** An empty collection, with a new marker. */
export const newChatMedia = (): ChatMedia => ({ marker: `<__media_${crypto.randomUUID()}__>`, parts: [] });

/** What a request's `media` is once its messages are read: the collection, or null where none was found. */
export const collectedMedia = (media: ChatMedia): ChatMedia | null => (media.parts.length > 0 ? media : null);

/**
 * `media` with each URL part's bytes downloaded (media-bytes.ts, llama-server's bounds), and a
 * WebP or AVIF image read by the browser (browser-image.ts), in order.
 */
export async function downloadChatMedia(media: ChatMedia, signal?: AbortSignal): Promise<ChatMedia> {
  const parts: MediaPart[] = [];
  for (const part of media.parts) {
    const bytes = await engineReadableImage(await mediaBytes(part, signal), part.param);
    parts.push({ ...part, source: { kind: 'bytes', bytes } });
  }
  return { marker: media.marker, parts };
}

/** The media as the engine takes them; each part's bytes must be here (`downloadChatMedia`). */
export function promptMedia({ marker, parts }: ChatMedia): PromptMedia {
  return {
    marker,
    items: parts.map(({ source, kind, param }) => {
      if (source.kind !== 'bytes') throw new Error(`The media part '${param}' was not downloaded.`);
      return { bytes: source.bytes, kind, param };
    }),
  };
}

/** `chat` with its media's URL parts downloaded (a chat route's `resolve`). */
export async function withMediaBytes<T extends { media: ChatMedia | null }>(chat: T, signal?: AbortSignal): Promise<T> {
  return chat.media ? { ...chat, media: await downloadChatMedia(chat.media, signal) } : chat;
}
