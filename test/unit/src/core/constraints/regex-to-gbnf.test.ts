/** Regex -> GBNF: the grammar text for each supported construct, and the 400s for the rest. */
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import { regexExpression, regexToGbnf } from '../../../../../src/core/constraints/regex-to-gbnf';

const gbnf = (pattern: string): string =>
  regexToGbnf(pattern, 'regex')
    .replace(/^root ::= /, '')
    .trim();

function errorOf(pattern: string): InvalidRequestError {
  try {
    regexToGbnf(pattern, 'guided_regex');
  } catch (error) {
    if (error instanceof InvalidRequestError) return error;
    throw error;
  }
  throw new Error(`no error for ${pattern}`);
}

describe('regexToGbnf', () => {
  it.each([
    ['[0-9]{3}-x[a-z]{2}', '[0-9]{3} "-x" [a-z]{2}'],
    ['^(ab|c)+d?$', '("ab" | "c")+ "d"?'],
    ['(?:x|y|)z', '("x" | "y" | "") "z"'],
    ['(?<year>\\d{4})-\\d{2,}', '[0-9]{4} "-" [0-9]{2,}'],
    ['a{2,5}?b*?', '"a"{2,5} "b"*'],
    ['\\w\\W', '[0-9A-Z_a-z] [^0-9A-Z_a-z]'],
    ['[^a-z"]x.', '[^"a-z] "x" [^\\n\\r\\u2028-\\u2029]'],
    ['[\\]\\-^]', '[\\x5D\\x2D\\x5E]'],
    ['[a-]', '[a\\x2D]'],
    ['\\x41\\u00e9\\u{1F600}', '"Aé😀"'],
    ['\\.\\*\\\\"', '".*\\\\\\""'],
  ])('%s', (pattern, expected) => {
    expect(gbnf(pattern)).toBe(expected);
  });

  it('treats a brace that is not a quantifier as a literal', () => {
    expect(gbnf('a{x}')).toBe('"a{x}"');
  });

  it('alternation at the top level', () => {
    expect(gbnf('cat|dog')).toBe('"cat" | "dog"');
  });

  it.each([
    ['a(?=b)', 1, 'lookaround', 'unsupported_regex'],
    ['a(?<!b)', 1, 'lookaround', 'unsupported_regex'],
    ['(a)\\1', 3, 'backreference', 'unsupported_regex'],
    ['\\bword', 0, 'word boundary', 'unsupported_regex'],
    ['\\p{L}', 0, 'Unicode property', 'unsupported_regex'],
    ['a^b', 1, "anchor '^'", 'unsupported_regex'],
    ['a$b', 1, "anchor '$'", 'unsupported_regex'],
    ['[a-', 0, "missing ']'", 'invalid_regex'],
    ['(a', 0, "missing ')'", 'invalid_regex'],
    ['a)', 1, "unmatched ')'", 'invalid_regex'],
    ['*a', 0, 'nothing to repeat', 'invalid_regex'],
    ['a**', 2, 'nothing to repeat', 'invalid_regex'],
    ['a{3,1}', 1, 'out of order', 'invalid_regex'],
    ['[z-a]', 1, 'out of order', 'invalid_regex'],
    ['\\q', 0, 'unknown escape', 'invalid_regex'],
    ['x\\', 1, 'trailing backslash', 'invalid_regex'],
  ])('refuses %s', (pattern, position, what, code) => {
    const error = errorOf(pattern);
    expect(error.status).toBe(400);
    expect(error.param).toBe('guided_regex');
    expect(error.code).toBe(code);
    expect(error.message).toContain(`at position ${position}`);
    expect(error.message).toContain(what);
  });
});

describe('regexExpression (JSON string mode)', () => {
  it('escapes quotes, backslashes and newlines as JSON does', () => {
    expect(regexExpression('^[a-z"\\\\]+\\n?$', 'p', { json: true })).toBe(
      '([a-z] | "\\\\\\"" | "\\\\\\\\")+ "\\\\n"?',
    );
  });

  it('lets unanchored ends match any JSON string text unless fullMatch', () => {
    const any = '([^\\x00-\\x1F"\\\\] | "\\\\\\"" | "\\\\\\\\" | "\\\\n" | "\\\\t" | "\\\\r")*';
    expect(regexExpression('ab', 'p', { json: true, fullMatch: false })).toBe(`${any} "ab" ${any}`);
    expect(regexExpression('^ab', 'p', { json: true, fullMatch: false })).toBe(`"ab" ${any}`);
    expect(regexExpression('ab', 'p', { json: true })).toBe('"ab"');
  });
});
