/**
 * `POST /v1/audio/transcriptions` (issue 32: route.ts), multipart as OpenAI's SDK sends
 * it, read as llama-server reads it (tools/server's convert_transcriptions_to_chatcmpl): the
 * `file` field is the audio; the user message is the request's `prompt`, or the ASR preset of
 * the model's template (common/chat.cpp's common_chat_get_asr_prompt: "Transcribe audio to text";
 * an LFM2 template has the system message "Perform ASR." and no user text), then
 * " (language: xx)" when `language` is given, then the media marker. `temperature` and
 * `max_tokens` come as form strings. `response_format` takes OpenAI's `json`, `text` and
 * `verbose_json` (llama-server takes `json` only); `srt` and `vtt` are a 400 naming it.
 */
import { InvalidRequestError } from '#core/domain/errors';
import type { MediaPart } from '../../conversation/media-content';

export const TRANSCRIPTION_FORMATS = ['json', 'text', 'verbose_json'] as const;
export type TranscriptionFormat = (typeof TRANSCRIPTION_FORMATS)[number];

/** OpenAI's bound on an uploaded file (25 MB). */
export const TRANSCRIPTION_FILE_LIMIT = 25 * 1024 * 1024;

export interface TranscriptionRequest {
  readonly model: string | null;
  readonly messages: ReadonlyArray<{ readonly role: 'system' | 'user'; readonly content: string }>;
  readonly media: readonly MediaPart[];
  readonly responseFormat: TranscriptionFormat;
  /** The `language` field (ISO-639-1), or null when not given. */
  readonly language: string | null;
  readonly temperature: number | null;
  readonly maxTokens: number | null;
  readonly stream: boolean;
}

/** llama.cpp's test for an LFM2 chat template (common/parsers/lfm2.cpp). */
const isLfm2Template = (source: string) =>
  source.includes('<|tool_list_start|>') && source.includes('<|tool_list_end|>');

export async function readTranscriptionRequest(
  form: FormData,
  marker: string,
  templateSource: string,
): Promise<TranscriptionRequest> {
  const file = form.get('file');
  if (file === null) throw new InvalidRequestError('No input file found for transcription', 'file');
  if (typeof file === 'string') throw new InvalidRequestError("Invalid type for 'file': expected a file.", 'file');
  if (file.size > TRANSCRIPTION_FILE_LIMIT) {
    throw new InvalidRequestError(`Maximum content size limit (${TRANSCRIPTION_FILE_LIMIT}) exceeded.`, 'file');
  }
  const responseFormat = text(form, 'response_format') ?? 'json';
  const format = TRANSCRIPTION_FORMATS.find((f) => f === responseFormat);
  if (format === undefined) {
    throw new InvalidRequestError(
      `Invalid value for 'response_format': '${responseFormat}'; supported values are: ${TRANSCRIPTION_FORMATS.map((f) => `'${f}'`).join(', ')}.`,
      'response_format',
    );
  }
  const lfm2 = isLfm2Template(templateSource);
  const language = text(form, 'language') ?? '';
  const prompt =
    (text(form, 'prompt') || (lfm2 ? '' : 'Transcribe audio to text')) + (language ? ` (language: ${language})` : '');
  return {
    model: text(form, 'model'),
    messages: [
      ...(lfm2 ? [{ role: 'system' as const, content: 'Perform ASR.' }] : []),
      { role: 'user', content: prompt + marker },
    ],
    media: [
      { source: { kind: 'bytes', bytes: new Uint8Array(await file.arrayBuffer()) }, kind: 'audio', param: 'file' },
    ],
    responseFormat: format,
    language: language || null,
    temperature: number(form, 'temperature', false),
    maxTokens: number(form, 'max_tokens', true),
    stream: text(form, 'stream') === 'true',
  };
}

/** A text field, or null when absent; a file there is a 400. */
function text(form: FormData, name: string): string | null {
  const value = form.get(name);
  if (value === null || typeof value === 'string') return value;
  throw new InvalidRequestError(`Invalid type for '${name}': expected a string, but got a file instead.`, name);
}

function number(form: FormData, name: string, integer: boolean): number | null {
  const value = text(form, name);
  if (value === null || value.trim() === '') return null;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || (integer && (!Number.isInteger(parsed) || parsed < 0))) {
    throw new InvalidRequestError(
      `Invalid value for '${name}': expected ${integer ? 'a non-negative integer' : 'a number'}, but got '${value}'.`,
      name,
    );
  }
  return parsed;
}
