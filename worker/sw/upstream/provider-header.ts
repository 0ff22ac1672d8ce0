/**
 * `X-Inpage-Provider`: which target answered (an upstream's name, or `device`, the page itself),
 * on every answer of the endpoint's routes, errors included (the last target tried).
 */
import { toOpenAIError } from '#core/domain/errors';
import { errorResponse, type Dialect } from '../dialect/dialect';

export const PROVIDER_HEADER = 'x-inpage-provider';

/** `response` with the header naming `target`. */
export function tagged(response: Response, target: string): Response {
  response.headers.set(PROVIDER_HEADER, target);
  return response;
}

/** What `run` answers, or its error in `dialect`, tagged with `target`. */
export async function answerFrom(target: string, run: () => Promise<Response>, dialect: Dialect): Promise<Response> {
  try {
    return tagged(await run(), target);
  } catch (error) {
    return tagged(errorResponse(dialect, toOpenAIError(error)), target);
  }
}
