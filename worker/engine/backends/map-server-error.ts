import { InvalidRequestError } from '../../../src/core/errors';

/** llama-server's own errors, mapped to the OpenAI error they mean. */
export function mapServerError(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (/exceed|context size|context length/i.test(message)) {
    return new InvalidRequestError(`The prompt is longer than the model's context: ${message}`, 'prompt', 'context_length_exceeded');
  }
  return error instanceof Error ? error : new Error(message);
}
