import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '#core/domain/errors';
import { inputFilePart, inputImagePart } from '../../../../../../worker/sw/routes/responses/responses-media';

const at = 'input[0].content[1]';

/** Each case's part is refused by `read` with a 400 whose message matches and whose param is the one given. */
function expectRefusals(
  cases: Array<[Record<string, unknown>, RegExp, string]>,
  read: (part: Record<string, unknown>) => unknown,
): void {
  for (const [part, message, param] of cases) {
    let caught: unknown = null;
    try {
      read(part);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidRequestError);
    if (!(caught instanceof InvalidRequestError)) continue;
    expect(caught.message).toMatch(message);
    expect(caught.param).toBe(param);
  }
}

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
    expectRefusals(cases, (part) => inputImagePart({ type: 'input_image', ...part }, at));
  });
});

describe('inputFilePart', () => {
  const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');
  const WAV = 'RIFF\x24\x00\x00\x00WAVEfmt ';
  const PNG = '\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR';

  it('reads file_data (a data: URL or base64) as the image or sound its bytes are, and file_url by its extension', () => {
    const sound = inputFilePart(
      { type: 'input_file', file_data: `data:audio/wav;base64,${b64(WAV)}`, filename: 'a.wav' },
      at,
    );
    expect(sound.kind).toBe('audio');
    expect(sound.param).toBe(at);
    expect(inputFilePart({ type: 'input_file', file_data: b64(PNG) }, at).kind).toBe('image');
    // The bytes decide, not the name or the declared type.
    expect(inputFilePart({ type: 'input_file', file_data: `data:image/png;base64,${b64(WAV)}` }, at).kind).toBe(
      'audio',
    );
    const byUrl = inputFilePart({ type: 'input_file', file_url: 'https://example.com/voice.MP3?x=1' }, at);
    expect(byUrl).toEqual({
      source: { kind: 'url', url: 'https://example.com/voice.MP3?x=1' },
      kind: 'audio',
      param: at,
    });
    expect(inputFilePart({ type: 'input_file', file_url: 'https://example.com/a.webp' }, at).kind).toBe('image');
  });

  it('is a 400 naming the part or field for file_id, a PDF, a non-http file_url or a missing file', () => {
    const cases: Array<[Record<string, unknown>, RegExp, string]> = [
      [
        { file_id: 'file-1' },
        /file_id' is not supported here: give the file as 'file_data' or 'file_url'/,
        `${at}.file_id`,
      ],
      [{ file_data: b64('%PDF-1.7\n') }, /is a PDF: files are read here as images or sounds/, at],
      [{ file_url: 'ftp://example.com/a.wav' }, /an http\(s\) URL is expected/, `${at}.file_url`],
      [{}, /expected a string/, `${at}.file_url`],
      [{ file_data: 42 }, /expected a string/, `${at}.file_data`],
    ];
    expectRefusals(cases, (part) => inputFilePart({ type: 'input_file', ...part }, at));
  });
});
