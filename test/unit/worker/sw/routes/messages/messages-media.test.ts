import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '#core/domain/errors';
import { imageBlockPart } from '../../../../../../worker/sw/routes/messages/messages-media';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const data = Buffer.from(PNG).toString('base64');
const at = 'messages[0].content[1]';

describe('imageBlockPart', () => {
  it('reads base64 (media_type defaulting to JPEG, as llama-server) and URL sources', () => {
    expect(imageBlockPart({ type: 'image', source: { type: 'base64', media_type: 'image/png', data } }, at)).toEqual({
      source: { kind: 'bytes', bytes: PNG },
      kind: 'image',
      param: at,
    });
    expect(imageBlockPart({ type: 'image', source: { type: 'base64', data } }, at).source.kind).toBe('bytes');
    expect(imageBlockPart({ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }, at)).toEqual({
      source: { kind: 'url', url: 'https://example.com/a.png' },
      kind: 'image',
      param: at,
    });
  });

  it('is a 400 naming the source for what Anthropic or llama-server refuses', () => {
    const cases: Array<[unknown, RegExp, string]> = [
      [{ type: 'base64', media_type: 'image/tiff', data }, /Input should be 'image\/jpeg'/, `${at}.source.media_type`],
      [{ type: 'base64', media_type: 'image/png', data: '%%' }, /Invalid base64 value/, at],
      [{ type: 'base64', media_type: 'image/png' }, /data/, `${at}.source.data`],
      [{ type: 'file', file_id: 'f' }, /Input should be 'base64' or 'url'/, `${at}.source.type`],
      [{ type: 'url', url: 'file:///x.png' }, /file:\/\/ URLs are not allowed/, at],
      ['abc', /source/, `${at}.source`],
    ];
    for (const [source, message, param] of cases) {
      let caught: unknown = null;
      try {
        imageBlockPart({ type: 'image', source }, at);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InvalidRequestError);
      if (!(caught instanceof InvalidRequestError)) continue;
      expect(caught.status).toBe(400);
      expect(caught.message).toMatch(message);
      expect(caught.param).toBe(param);
    }
  });
});
