/**
 * What a media buffer is, decided as llama.cpp's mtmd helper decides it
 * (`mtmd_helper_bitmap_init_from_buf`): audio when it starts as a WAV (RIFF....WAVE), an MP3 (an
 * ID3 tag or an MPEG frame sync) or a FLAC file; anything else is taken for an image and left to
 * the image decoder. The part's type (`image_url`, `input_audio`) does not decide it, as in
 * llama-server: the SW uses this to refuse a part the model's projector cannot take.
 */
import { asciiAt } from './ascii-at';

export type MediaKind = 'image' | 'audio';

export function mediaKind(bytes: Uint8Array): MediaKind {
  if (bytes.length < 12) return 'image';
  const wav = asciiAt(bytes, 0, 'RIFF') && asciiAt(bytes, 8, 'WAVE');
  const mp3 = asciiAt(bytes, 0, 'ID3') || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0);
  const flac = asciiAt(bytes, 0, 'fLaC');
  return wav || mp3 || flac ? 'audio' : 'image';
}
