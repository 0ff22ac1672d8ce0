import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '#core/domain/errors';
import { flattenMediaContent } from '../../../../../worker/sw/conversation/media-content';

const M = '<__media_test__>';
const png = 'data:image/png;base64,iVBORw0KGgo=';
const wav = Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ').toString('base64');
const image = { type: 'image_url', image_url: { url: png } };
const audio = { type: 'input_audio', input_audio: { data: wav, format: 'wav' } };
const text = (t: string) => ({ type: 'text', text: t });

describe('flattenMediaContent', () => {
  it("joins parts as llama-server does: '\\n' between texts, none next to a marker", () => {
    const flat = flattenMediaContent(
      [text('a'), text('b'), image, text('c'), audio, audio, text('d')],
      'messages[0].content',
      M,
    );
    expect(flat.text).toBe(`a\nb${M}c${M}${M}d`);
    expect(flat.media.map((m) => m.param)).toEqual([
      'messages[0].content[2]',
      'messages[0].content[4]',
      'messages[0].content[5]',
    ]);
    expect(flat.media[0]?.source).toEqual({
      kind: 'bytes',
      bytes: Uint8Array.from(Buffer.from('iVBORw0KGgo=', 'base64')),
    });
  });

  it('keeps a string as it is, and a leading empty text adds no newline (llama-server)', () => {
    expect(flattenMediaContent('hi', 'p', M)).toEqual({ text: 'hi', media: [] });
    expect(flattenMediaContent([text(''), text('a')], 'p', M).text).toBe('a');
    expect(flattenMediaContent([image, text('describe')], 'p', M).text).toBe(`${M}describe`);
  });

  it('takes http(s) image URLs to fetch, and input_audio.url', () => {
    const remote = flattenMediaContent(
      [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }],
      'p',
      M,
    );
    expect(remote.media[0]?.source).toEqual({ kind: 'url', url: 'https://example.com/a.png' });
    const byUrl = flattenMediaContent(
      [{ type: 'input_audio', input_audio: { url: `data:audio/wav;base64,${wav}` } }],
      'p',
      M,
    );
    expect(byUrl.media[0]?.source.kind).toBe('bytes');
  });

  it('is a 400 naming the part for a bad part', () => {
    const bad: Array<[unknown[], RegExp, string]> = [
      [[text('a'), { type: 'video_url', video_url: { url: png } }], /'video_url' is not supported here/, 'p[1]'],
      [[{ type: 'image_url', image_url: png }], /'p\[0\]\.image_url': expected an object/, 'p[0]'],
      [[image, { type: 'image_url', image_url: { url: 3 } }], /'p\[1\]\.image_url\.url': expected a string/, 'p[1]'],
      [[{ type: 'image_url', image_url: { url: 'data:image/png;base64,%%%' } }], /Invalid base64 value/, 'p[0]'],
      [[{ type: 'input_audio', input_audio: {} }], /'p\[0\]\.input_audio\.data': expected a string/, 'p[0]'],
      [['a'], /'p\[0\]': expected an object/, 'p[0]'],
      [[text('a'), { type: 'text', text: 1 }], /'p\[1\]\.text': expected a string/, 'p[1]'],
    ];
    for (const [content, message, param] of bad) {
      try {
        flattenMediaContent(content, 'p', M);
        throw new Error('no error');
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidRequestError);
        if (!(error instanceof InvalidRequestError)) return;
        expect(error.status).toBe(400);
        expect(error.message).toMatch(message);
        expect(error.param).toBe(param);
      }
    }
  });
});
