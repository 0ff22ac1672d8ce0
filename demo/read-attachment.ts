/**
 * Reads a picked or dropped file into a Chat tab attachment: an image (any `image/*`; the engine
 * says which it cannot decode) or a WAV / MP3 sound, as base64. Anything else is refused with a
 * sentence the tab shows.
 */
import { audioFormat, type ChatAttachment } from './chat-attachment';

/** The attachment, or why the file cannot be one. */
export type ReadResult = { attachment: ChatAttachment } | { refused: string };

/** What the model takes besides text (its card's `modalities`). */
export interface Modalities {
  vision: boolean;
  audio: boolean;
}

export async function readAttachment(file: File, modalities: Modalities): Promise<ReadResult> {
  const { name, type } = file;
  if (type.startsWith('image/')) {
    if (!modalities.vision) return { refused: `${name}: this model takes no images.` };
    return { attachment: { kind: 'image', name, mediaType: type, data: await base64(file) } };
  }
  const format = audioFormat(type, name);
  if (format !== null) {
    if (!modalities.audio) return { refused: `${name}: this model takes no audio.` };
    const mediaType = type.startsWith('audio/') ? type : format === 'wav' ? 'audio/wav' : 'audio/mpeg';
    return { attachment: { kind: 'audio', name, mediaType, data: await base64(file), format } };
  }
  return { refused: `${name}: not an image, a WAV or an MP3 file.` };
}

/** The file's bytes as base64 (`btoa` over 32 KiB slices of binary text). */
async function base64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
