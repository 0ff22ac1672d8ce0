import { describe, expect, it } from 'vitest';
import { browserImageType } from '#core/media/browser-image-type';
import { mediaKind } from '#core/media/media-kind';

const bytes = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));

describe('browserImageType', () => {
  it('finds WebP (RIFF....WEBP), which mediaKind leaves an image, and AVIF by its ftyp brand', () => {
    const webp = bytes('RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00');
    expect(browserImageType(webp)).toBe('webp');
    expect(mediaKind(webp)).toBe('image');
    expect(browserImageType(bytes('\x00\x00\x00\x1cftypavif\x00\x00\x00\x00'))).toBe('avif');
    expect(browserImageType(bytes('\x00\x00\x00\x1cftypavis\x00\x00\x00\x00'))).toBe('avif');
  });

  it('leaves what stb_image reads, sounds and short or other files to the engine', () => {
    expect(browserImageType(bytes('\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR'))).toBeNull();
    expect(browserImageType(bytes('\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01'))).toBeNull();
    expect(browserImageType(bytes('GIF89a\x01\x00\x01\x00\x00\x00'))).toBeNull();
    expect(browserImageType(bytes('RIFF\x24\x00\x00\x00WAVEfmt '))).toBeNull();
    expect(browserImageType(bytes('\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00'))).toBeNull();
    expect(browserImageType(bytes('RIFF\x1a\x00\x00\x00WEB'))).toBeNull();
  });
});
