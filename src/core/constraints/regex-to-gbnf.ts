/**
 * Regular expression -> GBNF. `regexToGbnf` gives a whole grammar (`root ::= ...`) whose
 * language is exactly the pattern's (anchors at the ends are implied: the output must match
 * whole). `regexExpression` gives one GBNF expression; with `json: true` it matches the
 * pattern's strings as they appear inside a JSON string literal (quotes and backslashes
 * escaped, control characters left out), for JSON Schema `pattern`.
 */
import type { CodeRange } from './gbnf-literal';
import type { RegexNode } from './regex-ast';
import { gbnfClass, gbnfLiteral } from './gbnf-literal';
import { complementRanges, MAX_CODE_POINT, rangesContain, subtractRanges } from './code-ranges';
import { parseRegex } from './regex-parse';

/** Options for {@link regexExpression}. */
export interface RegexGbnfOptions {
  /** Emit JSON-string-escaped text (for a pattern inside a JSON string). */
  readonly json?: boolean;
  /** Code points a set or `.` leaves out (Gemma's strings: `<`, which would begin their closing mark). */
  readonly exclude?: readonly CodeRange[];
}

/** How text is emitted: JSON-escaped or not, and what sets leave out. */
interface TextMode {
  readonly json: boolean;
  readonly exclude: readonly CodeRange[];
}

const JSON_UNSAFE: readonly CodeRange[] = [
  [0x00, 0x1f],
  [0x22, 0x22],
  [0x5c, 0x5c],
];

function jsonText(cp: number): string {
  if (cp === 0x22) return '\\"';
  if (cp === 0x5c) return '\\\\';
  const named: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };
  if (cp < 0x20) return named[cp] ?? `\\u${cp.toString(16).padStart(4, '0')}`;
  return String.fromCodePoint(cp);
}

function setExpression(all: readonly CodeRange[], { json, exclude }: TextMode): string {
  const ranges = exclude.length === 0 ? all : subtractRanges(all, exclude);
  const safe = json ? subtractRanges(ranges, JSON_UNSAFE) : [...ranges];
  const parts: string[] = [];
  if (safe.length > 0) {
    const top = safe[safe.length - 1];
    parts.push(top && top[1] === MAX_CODE_POINT ? gbnfClass(complementRanges(safe), true) : gbnfClass(safe));
  }
  if (json) {
    for (const cp of [0x22, 0x5c, 0x0a, 0x09, 0x0d])
      if (rangesContain(ranges, cp)) parts.push(gbnfLiteral(jsonText(cp)));
  }
  if (parts.length === 0) return '[^\\x00-\\U0010FFFF]';
  return parts.length === 1 ? (parts[0] as string) : `(${parts.join(' | ')})`;
}

function needsParens(node: RegexNode): boolean {
  return node.type === 'seq' || node.type === 'alt';
}

function emit(node: RegexNode, mode: TextMode): string {
  switch (node.type) {
    case 'empty':
      return '""';
    case 'char':
      return gbnfLiteral(mode.json ? jsonText(node.cp) : String.fromCodePoint(node.cp));
    case 'set':
      return setExpression(node.ranges, mode);
    case 'seq':
      return mergeLiterals(
        node.items.map((item) => (item.type === 'alt' ? `(${emit(item, mode)})` : emit(item, mode))),
      ).join(' ');
    case 'alt':
      return node.options.map((option) => emit(option, mode)).join(' | ');
    case 'repeat': {
      const inner = needsParens(node.node) ? `(${emit(node.node, mode)})` : emit(node.node, mode);
      const { min, max } = node;
      if (min === 0 && max === null) return `${inner}*`;
      if (min === 1 && max === null) return `${inner}+`;
      if (min === 0 && max === 1) return `${inner}?`;
      if (max === min) return `${inner}{${min}}`;
      return `${inner}{${min},${max ?? ''}}`;
    }
  }
}

/** Joins adjacent quoted literals (`"a" "b"` -> `"ab"`) for a readable grammar. */
function mergeLiterals(parts: string[]): string[] {
  const out: string[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    const literal = /^"(?:[^"\\]|\\.)*"$/;
    if (last !== undefined && literal.test(last) && literal.test(part))
      out[out.length - 1] = last.slice(0, -1) + part.slice(1);
    else out.push(part);
  }
  return out;
}

/** One GBNF expression for `pattern`; unanchored ends allow any text there unless `fullMatch`. */
export function regexExpression(
  pattern: string,
  param: string,
  options: RegexGbnfOptions & { fullMatch?: boolean } = {},
): string {
  const mode = { json: options.json === true, exclude: options.exclude ?? [] };
  const parsed = parseRegex(pattern, param);
  const body = emit(parsed.node, mode);
  const wrapped = parsed.node.type === 'alt' ? `(${body})` : body;
  if (options.fullMatch !== false) return wrapped;
  const any = `${setExpression([[0, MAX_CODE_POINT]], mode)}*`;
  return [parsed.anchoredStart ? '' : any, wrapped, parsed.anchoredEnd ? '' : any].filter(Boolean).join(' ');
}

/** A whole GBNF grammar whose `root` matches exactly the strings `pattern` matches in full. */
export function regexToGbnf(pattern: string, param: string): string {
  const parsed = parseRegex(pattern, param);
  return `root ::= ${emit(parsed.node, { json: false, exclude: [] })}\n`;
}
