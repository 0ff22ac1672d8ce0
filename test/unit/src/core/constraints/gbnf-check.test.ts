/** The GBNF checker: what llama.cpp's parser accepts passes; each kind of mistake is a precise 400. */
import { describe, expect, it } from 'vitest';
import { checkGbnf } from '../../../../../src/core/constraints/gbnf-check';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';

function errorOf(gbnf: string): InvalidRequestError {
  try {
    checkGbnf(gbnf, 'grammar');
  } catch (error) {
    if (error instanceof InvalidRequestError) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('checkGbnf', () => {
  it.each([
    'root ::= "xyz" [a-z] [a-z] [a-z]',
    'root ::= "a" |\n  "b"',
    'root ::= ("a"\n  | "b")\n',
    'root ::= item+ # trailing comment\n# a comment line\nitem ::= "- " [^\\r\\n\\x0b]+ "\\n"',
    'root ::= [^\\x00-\\U0010FFFF] | ""',
    'root ::= "a"{2} "b"{1,} "c"{0,3} .',
    'root ::= list\nlist ::= "[" (item ("," item)*)? "]"\nitem ::= [0-9]+ | list',
    'root ::= "\\"\\\\\\[\\]\\t\\x41\\u00e9"\r\n',
  ])('accepts %j', (gbnf) => {
    expect(() => checkGbnf(gbnf, 'grammar')).not.toThrow();
  });

  it.each([
    ['root ::= foo', "undefined rule 'foo' at line 1, column 10"],
    ['root ::= "abc', 'unterminated string literal at line 1, column 10'],
    ['root ::= [a-', "unterminated character class: missing ']' at line 1, column 10"],
    ['x ::= "a"', "no 'root' rule"],
    ['root ::= root "a"', 'left recursion is not supported: root -> root'],
    ['root ::= a\na ::= b? root\nb ::= "x"', 'left recursion is not supported: root -> a -> root'],
    ['root ::= "a"\n  | "b"', 'expecting name at line 2, column 3'],
    ['root ::= "\\q"', "unknown escape '\\q' at line 1, column 11"],
    ['root ::= "\\x4"', "expecting 2 hex digits after '\\x' at line 1, column 11"],
    ['root ::= "a"{2,1}', 'has max < min at line 1, column 13'],
    ['root ::= * "a"', "expecting preceding item to '*' at line 1, column 10"],
    ['root ::= ( "a"', "expecting ')' at line 1, column 15"],
    ['root = "a"', "expecting '::=' at line 1, column 6"],
    ['root ::= "a" )', "expecting newline or end, found ')' at line 1, column 14"],
    ['my_rule ::= "a"', "expecting '::=' at line 1, column 3"],
  ])('refuses %j', (gbnf, what) => {
    const error = errorOf(gbnf);
    expect(error.status).toBe(400);
    expect(error.param).toBe('grammar');
    expect(error.code).toBe('invalid_grammar');
    expect(error.message).toMatch(/^Invalid grammar in 'grammar': /);
    expect(error.message).toContain(what);
  });
});
