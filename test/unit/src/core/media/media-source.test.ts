import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '#core/domain/errors';
import { decodeBase64 } from '#core/media/base64';
import { mediaKind } from '#core/media/media-kind';
import { mediaSource } from '#core/media/media-source';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]);
const WAV = new TextEncoder().encode('RIFF\x24\x00\x00\x00WAVEfmt ');

function refusal(value: string): InvalidRequestError {
  try {
    mediaSource(value, 'messages[0].content[1]');
  } catch (error) {
    if (error instanceof InvalidRequestError) return error;
    throw error;
  }
  throw new Error(`no refusal for ${value.slice(0, 40)}`);
}

describe('decodeBase64', () => {
  it('decodes every length, with and without padding, and ignores whitespace', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff);
      const text = b64(bytes);
      expect(decodeBase64(text)).toEqual(bytes);
      expect(decodeBase64(text.replace(/=+$/, ''))).toEqual(bytes);
      expect(decodeBase64(text.replace(/(.{8})/g, '$1\n'))).toEqual(bytes);
    }
  });

  it('is null for characters outside base64 and for lengths base64 cannot have', () => {
    expect(decodeBase64('aGVsbG8*')).toBeNull();
    expect(decodeBase64('aGVsbG8-_')).toBeNull(); // base64url's alphabet
    expect(decodeBase64('aGVsb')).toBeNull(); // 5 characters: one past a group of four
    expect(decodeBase64('aGVsbA=')).toBeNull(); // padding that does not complete a group
    expect(decodeBase64('é')).toBeNull();
  });
});

describe('mediaSource', () => {
  it('takes data: URLs of image, audio and video types, and bare base64', () => {
    expect(mediaSource(`data:image/png;base64,${b64(PNG)}`, 'p')).toEqual({ kind: 'bytes', bytes: PNG });
    expect(mediaSource(`data:audio/wav;base64,${b64(WAV)}`, 'p')).toEqual({ kind: 'bytes', bytes: WAV });
    expect(mediaSource(b64(PNG), 'p')).toEqual({ kind: 'bytes', bytes: PNG });
  });

  it('leaves http(s) URLs to be fetched', () => {
    expect(mediaSource('https://example.com/cat.png', 'p')).toEqual({
      kind: 'url',
      url: 'https://example.com/cat.png',
    });
    expect(mediaSource('http://localhost:8080/a.wav', 'p')).toEqual({
      kind: 'url',
      url: 'http://localhost:8080/a.wav',
    });
  });

  it('refuses what llama-server refuses, with its text, as a 400 naming the part', () => {
    const cases: Array<[string, RegExp]> = [
      ['data:text/plain;base64,aGk=', /^Invalid uri format: data:text\/plain;base64$/],
      ['data:image/png,abc', /^uri must be base64 encoded/],
      ['data:image/png;base64,a,b', /^Invalid uri-encoded base64 value/],
      ['data:image/png;base64,', /^Invalid base64 value/],
      ['data:image/png;base64,***', /^Invalid base64 value/],
      ['', /^Invalid base64 value/],
      ['not base64!', /^Invalid base64 value/],
      ['file:///etc/passwd', /^file:\/\/ URLs are not allowed/],
      ['httpx://example.com', /^Invalid URL/],
    ];
    for (const [value, message] of cases) {
      const error = refusal(value);
      expect(error.status).toBe(400);
      expect(error.message).toMatch(message);
      expect(error.param).toBe('messages[0].content[1]');
    }
  });
});

describe('mediaKind', () => {
  it('is audio for WAV, MP3 and FLAC starts, as mtmd-helper decides, and image otherwise', () => {
    const pad = (head: number[] | string) =>
      Uint8Array.from([...(typeof head === 'string' ? new TextEncoder().encode(head) : head), ...new Uint8Array(16)]);
    expect(mediaKind(WAV)).toBe('audio');
    expect(mediaKind(pad('ID3\x04'))).toBe('audio');
    expect(mediaKind(pad([0xff, 0xfb, 0x90]))).toBe('audio');
    expect(mediaKind(pad('fLaC'))).toBe('audio');
    expect(mediaKind(pad('RIFF\x00\x00\x00\x00WEBPVP8 '))).toBe('image');
    expect(mediaKind(PNG)).toBe('image');
    expect(mediaKind(pad([0xff, 0xd8, 0xff, 0xe0]))).toBe('image'); // JPEG: 0xd8 has not the sync's top bits
    expect(mediaKind(Uint8Array.from([0xff, 0xfb]))).toBe('image'); // under 12 bytes: never audio
  });
});
