import { InvalidRequestError } from '#core/domain/errors';
import { checkWellFormed } from '#core/domain/lone-surrogate';

/**
 * Parses a request body as JSON; a malformed body is a 400, as OpenAI answers it, and so is a
 * body with a lone UTF-16 surrogate in any string or key (`checkWellFormed`): every route reads
 * its body here, so no engine sees such a string.
 */
export async function readJson(request: Request): Promise<unknown> {
  return parseBody(await request.text());
}

/** As `readJson`, for a route whose body may be left out: an empty body is null. */
export async function readOptionalJson(request: Request): Promise<unknown> {
  const text = await request.text();
  return text === '' ? null : parseBody(text);
}

function parseBody(text: string): unknown {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new InvalidRequestError(
      'We could not parse the JSON body of your request. The OpenAI API expects a JSON payload.',
      null,
      'invalid_json',
    );
  }
  checkWellFormed(body, text);
  return body;
}
