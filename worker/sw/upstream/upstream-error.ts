/**
 * An upstream's error answer as OpenAI error JSON with its status: its own message, type, param
 * and code where it sent them in OpenAI's shape (llama-server's numeric `code` is dropped), else
 * the start of its body. The message names the upstream, never its URL or headers.
 */
import { OpenAIError } from '#core/domain/errors';
import { isRecord } from '#core/util/is-record';

const MAX_BODY = 64 * 1024;

export async function upstreamError(name: string, response: Response): Promise<OpenAIError> {
  const text = (await response.text().catch(() => '')).slice(0, MAX_BODY);
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: its text is the message.
  }
  const error = isRecord(parsed) && isRecord(parsed['error']) ? parsed['error'] : null;
  const said = typeof error?.['message'] === 'string' ? error['message'] : text.slice(0, 300) || response.statusText;
  const type =
    typeof error?.['type'] === 'string'
      ? error['type']
      : response.status >= 500
        ? 'server_error'
        : 'invalid_request_error';
  const param = typeof error?.['param'] === 'string' ? error['param'] : null;
  const code = typeof error?.['code'] === 'string' ? error['code'] : 'upstream_error';
  return new OpenAIError(response.status, `Upstream '${name}' answered ${response.status}: ${said}`, type, param, code);
}

/** The upstream could not be reached: a connection error, or a CORS block (the SW cannot tell them apart). */
export const unreachable = (name: string) =>
  new OpenAIError(
    502,
    `Upstream '${name}' is unreachable or blocked by CORS (it must allow this origin, content-type, authorization and its configured headers).`,
    'server_error',
    null,
    'upstream_unreachable',
  );

export const timedOut = (name: string, ms: number) =>
  new OpenAIError(504, `Upstream '${name}' did not answer within ${ms} ms.`, 'server_error', null, 'upstream_timeout');

/** Ends a stream whose upstream broke after its first byte. */
export const brokeMidStream = (name: string) =>
  new OpenAIError(
    502,
    `Upstream '${name}' stopped in the middle of its answer.`,
    'server_error',
    null,
    'upstream_stream_error',
  );
