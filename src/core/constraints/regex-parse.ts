/**
 * Parses a regular expression (JavaScript syntax, the subset a grammar can express):
 * literals, `.`, classes, `\d \w \s`, groups (`(...)`, `(?:...)`, `(?<name>...)`),
 * alternation, quantifiers `* + ? {m} {m,} {m,n}` (lazy `?` accepted: same language), and
 * anchors `^`/`$` at the ends only. Lookarounds and backreferences are refused with a 400.
 */
import type { CodeRange } from './gbnf-literal';
import type { ParsedRegex, RegexNode } from './regex-ast';
import { complementRanges, DOT } from './code-ranges';
import { regexError } from './regex-error';
import { parseEscape } from './regex-escape';

function isQuantifierChar(ch: string | undefined): boolean {
  return ch === '*' || ch === '+' || ch === '?';
}

/** Parses `src`; errors name `param` (e.g. `regex`, `response_format`). */
export function parseRegex(src: string, param: string): ParsedRegex {
  let pos = 0;
  const anchoredStart = src.startsWith('^');
  if (anchoredStart) pos = 1;
  const fail = (what: string, at = pos, code: 'invalid_regex' | 'unsupported_regex' = 'invalid_regex') =>
    regexError(param, at, what, code);

  function alternation(): RegexNode {
    const options = [sequence()];
    while (src[pos] === '|') {
      pos += 1;
      options.push(sequence());
    }
    return options.length === 1 ? (options[0] as RegexNode) : { type: 'alt', options };
  }

  function sequence(): RegexNode {
    const items: RegexNode[] = [];
    while (pos < src.length && src[pos] !== '|' && src[pos] !== ')') {
      if (src[pos] === '$' && pos === src.length - 1) break;
      items.push(quantified(atom()));
    }
    return items.length === 0
      ? { type: 'empty' }
      : items.length === 1
        ? (items[0] as RegexNode)
        : { type: 'seq', items };
  }

  function quantified(node: RegexNode): RegexNode {
    const bounds = quantifier();
    if (!bounds) return node;
    if (src[pos] === '?') pos += 1; // lazy: same language
    if (isQuantifierChar(src[pos]) || (src[pos] === '{' && /^\{\d+(,\d*)?\}/.test(src.slice(pos))))
      throw fail('nothing to repeat');
    return { type: 'repeat', node, min: bounds[0], max: bounds[1] };
  }

  function quantifier(): [number, number | null] | null {
    const ch = src[pos];
    if (ch === '*' || ch === '+' || ch === '?') {
      pos += 1;
      return ch === '*' ? [0, null] : ch === '+' ? [1, null] : [0, 1];
    }
    const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(pos));
    if (!m) return null;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? null : Number(m[3]);
    if (max !== null && max < min) throw fail(`numbers out of order in quantifier ${m[0]}`);
    pos += m[0].length;
    return [min, max];
  }

  function atom(): RegexNode {
    const start = pos;
    const ch = src[pos] ?? '';
    if (isQuantifierChar(ch)) throw fail('nothing to repeat');
    if (ch === '^' || ch === '$')
      throw fail(`anchor '${ch}' is only supported at the start/end of the pattern`, pos, 'unsupported_regex');
    if (ch === '.') return ((pos += 1), { type: 'set', ranges: DOT });
    if (ch === '[') return charClass();
    if (ch === '(') return group(start);
    if (ch === '\\') {
      const escape = parseEscape(src, pos, false, param);
      pos = escape.next;
      return 'cp' in escape ? { type: 'char', cp: escape.cp } : { type: 'set', ranges: escape.ranges };
    }
    const cp = src.codePointAt(pos) ?? 0;
    pos += cp > 0xffff ? 2 : 1;
    return { type: 'char', cp };
  }

  function group(start: number): RegexNode {
    pos += 1;
    if (src[pos] === '?') {
      const head = src.slice(pos, pos + 3);
      if (head.startsWith('?:')) pos += 2;
      else if (head === '?<=' || head === '?<!' || head.startsWith('?=') || head.startsWith('?!')) {
        throw fail(
          `lookaround '(${head.startsWith('?<') ? head : head.slice(0, 2)}' is not supported`,
          start,
          'unsupported_regex',
        );
      } else if (head.startsWith('?<')) {
        const end = src.indexOf('>', pos);
        if (end < 0) throw fail('unterminated group name', start);
        pos = end + 1;
      } else throw fail('invalid group', start);
    }
    const inner = alternation();
    if (src[pos] !== ')') throw fail("unterminated group: missing ')'", start);
    pos += 1;
    return inner;
  }

  function charClass(): RegexNode {
    const start = pos;
    pos += 1;
    const negated = src[pos] === '^';
    if (negated) pos += 1;
    const ranges: CodeRange[] = [];
    while (src[pos] !== ']') {
      if (pos >= src.length) throw fail("unterminated character class: missing ']'", start);
      const at = pos;
      const lo = classAtom();
      if (src[pos] === '-' && src[pos + 1] !== ']' && pos + 1 < src.length && typeof lo === 'number') {
        pos += 1;
        const hi = classAtom();
        if (typeof hi !== 'number') throw fail('invalid range in character class');
        if (hi < lo) throw fail('range out of order in character class', at);
        ranges.push([lo, hi]);
      } else if (typeof lo === 'number') ranges.push([lo, lo]);
      else ranges.push(...lo);
    }
    pos += 1;
    return { type: 'set', ranges: negated ? complementRanges(ranges) : ranges };
  }

  function classAtom(): number | readonly CodeRange[] {
    if (src[pos] === '\\') {
      const escape = parseEscape(src, pos, true, param);
      pos = escape.next;
      return 'cp' in escape ? escape.cp : escape.ranges;
    }
    const cp = src.codePointAt(pos) ?? 0;
    pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  const node = alternation();
  if (src[pos] === ')') throw fail("unmatched ')'");
  const anchoredEnd = src[pos] === '$';
  return { node, anchoredStart, anchoredEnd };
}
