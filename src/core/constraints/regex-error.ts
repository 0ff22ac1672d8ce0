/** The 400 for a regex the converter cannot read or cannot express as a grammar. */
import { InvalidRequestError } from '../domain/errors';

/** `invalid_regex`: malformed; `unsupported_regex`: valid, but not expressible as a grammar. */
export type RegexErrorCode = 'invalid_regex' | 'unsupported_regex';

/** Builds the error: `Invalid regex in 'regex' at position 3: lookahead is not supported`. */
export function regexError(
  param: string,
  pos: number,
  what: string,
  code: RegexErrorCode = 'invalid_regex',
): InvalidRequestError {
  return new InvalidRequestError(`Invalid regex in '${param}' at position ${pos}: ${what}`, param, code);
}
