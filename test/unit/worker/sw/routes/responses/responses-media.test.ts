import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '#core/domain/errors';
import { inputImagePart } from '../../../../../../worker/sw/routes/responses/responses-media';

const at = 'input[0].content[1]';

describe('inputImagePart', () => {
  it('reads image_url as a data: or http(s) URL', () => {
    expect(
      inputImagePart({ type: 'input_image', image_url: 'data:image/png;base64,iVBORw==', detail: 'low' }, at),
    ).toEqual({
      source: { kind: 'bytes', bytes: Uint8Array.from([0x89, 0x50, 0x4e, 0x47]) },
      kind: 'image',
      param: at,
    });
    expect(inputImagePart({ type: 'input_image', image_url: 'https://example.com/a.png' }, at).source).toEqual({
      kind: 'url',
      url: 'https://example.com/a.png',
    });
  });

  it('is a 400 naming the field for file_id, a missing image_url or a bad detail', () => {
    const cases: Array<[Record<string, unknown>, RegExp, string]> = [
      [{ file_id: 'file-1' }, /file_id' is not supported here/, `${at}.file_id`],
      [{}, /expected a string/, `${at}.image_url`],
      [{ image_url: { url: 'https://example.com/a.png' } }, /expected a string/, `${at}.image_url`],
      [{ image_url: 'https://example.com/a.png', detail: 'max' }, /'auto', 'low' and 'high'/, `${at}.detail`],
      [{ image_url: 'data:image/png;base64,' }, /Invalid base64 value/, at],
    ];
    for (const [part, message, param] of cases) {
      let caught: unknown = null;
      try {
        inputImagePart({ type: 'input_image', ...part }, at);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InvalidRequestError);
      if (!(caught instanceof InvalidRequestError)) continue;
      expect(caught.message).toMatch(message);
      expect(caught.param).toBe(param);
    }
  });
});
