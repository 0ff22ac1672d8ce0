/** A list of choices -> a GBNF grammar matching exactly one of them (vLLM's `guided_choice`). */
import { InvalidRequestError } from '../domain/errors';
import { gbnfLiteral } from './gbnf-literal';

/** `root ::= "a" | "b"`; an empty list or a non-string entry is a 400 naming `param`. */
export function choiceToGbnf(choices: unknown, param: string): string {
  if (!Array.isArray(choices) || choices.length === 0) {
    throw new InvalidRequestError(`'${param}' must be a non-empty array of strings`, param, 'invalid_choice');
  }
  const literals = choices.map((choice, i) => {
    if (typeof choice !== 'string')
      throw new InvalidRequestError(`'${param}[${i}]' must be a string`, param, 'invalid_choice');
    return gbnfLiteral(choice);
  });
  return `root ::= ${[...new Set(literals)].join(' | ')}\n`;
}
