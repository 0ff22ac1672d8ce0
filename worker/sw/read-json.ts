import { InvalidRequestError } from '#core/domain/errors';

/** Parses a request body as JSON; a malformed body is a 400, as OpenAI answers it. */
export async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidRequestError(
      'We could not parse the JSON body of your request. The OpenAI API expects a JSON payload.',
      null,
      'invalid_json',
    );
  }
}
