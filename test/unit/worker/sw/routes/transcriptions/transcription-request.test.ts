import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '#core/domain/errors';
import { readTranscriptionRequest } from '../../../../../../worker/sw/routes/transcriptions/transcription-request';

const M = '<__media_test__>';
const WAV = new TextEncoder().encode('RIFF\x24\x00\x00\x00WAVEfmt ');

function form(fields: Record<string, string | Blob>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

const audio = () => new File([WAV], 'a.wav', { type: 'audio/wav' });

async function refusal(fields: Record<string, string | Blob>): Promise<InvalidRequestError> {
  const error: unknown = await readTranscriptionRequest(form(fields), M, '').then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof InvalidRequestError) return error;
  throw new Error(`expected a 400, got ${String(error)}`);
}

describe('readTranscriptionRequest', () => {
  it("makes llama-server's chat request: the ASR preset, the language, the marker, the file", async () => {
    const request = await readTranscriptionRequest(form({ file: audio(), model: 'whisper-1', language: 'fr' }), M, '');
    expect(request.messages).toEqual([{ role: 'user', content: `Transcribe audio to text (language: fr)${M}` }]);
    expect(request.media).toEqual([{ source: { kind: 'bytes', bytes: WAV }, kind: 'audio', param: 'file' }]);
    expect(request).toMatchObject({
      model: 'whisper-1',
      responseFormat: 'json',
      temperature: null,
      maxTokens: null,
      stream: false,
    });
  });

  it("takes the request's prompt, the form's numbers and flags, and an LFM2 template's preset", async () => {
    const request = await readTranscriptionRequest(
      form({
        file: audio(),
        prompt: 'Names: Ada.',
        temperature: '0.2',
        max_tokens: '64',
        stream: 'true',
        response_format: 'verbose_json',
      }),
      M,
      '',
    );
    expect(request.messages).toEqual([{ role: 'user', content: `Names: Ada.${M}` }]);
    expect(request).toMatchObject({ temperature: 0.2, maxTokens: 64, stream: true, responseFormat: 'verbose_json' });
    const lfm2 = await readTranscriptionRequest(
      form({ file: audio() }),
      M,
      '{{ "<|tool_list_start|>" }}<|tool_list_end|>',
    );
    expect(lfm2.messages).toEqual([
      { role: 'system', content: 'Perform ASR.' },
      { role: 'user', content: M },
    ]);
  });

  it('is a 400 naming the field for a missing file, a bad format or a bad number', async () => {
    const cases: Array<[Record<string, string | Blob>, string, RegExp]> = [
      [{ model: 'm' }, 'file', /^No input file found for transcription$/],
      [{ file: 'text' }, 'file', /expected a file/],
      [
        { file: audio(), response_format: 'srt' },
        'response_format',
        /supported values are: 'json', 'text', 'verbose_json'/,
      ],
      [{ file: audio(), temperature: 'hot' }, 'temperature', /expected a number/],
      [{ file: audio(), max_tokens: '1.5' }, 'max_tokens', /non-negative integer/],
      [{ file: audio(), language: audio() }, 'language', /got a file/],
    ];
    for (const [fields, param, message] of cases) {
      const error = await refusal(fields);
      expect(error.status).toBe(400);
      expect(error.param).toBe(param);
      expect(error.message).toMatch(message);
    }
  });
});
