/**
 * A GBNF parser following llama.cpp's grammar-parser: rules `name ::= alternates`, literals,
 * classes, `.`, groups, `* + ? {m} {m,} {m,n}`, `#` comments, token references `<...>`,
 * newlines allowed only after `::=`, after `|` and inside parentheses. It builds the small
 * tree the semantic checks need and throws {@link GbnfSyntaxError} at the first error.
 */

/** One element of a sequence: a reference, a terminal, or a group, and whether it may be empty. */
export type GbnfElement =
  | { readonly kind: 'ref'; readonly name: string; readonly offset: number; readonly optional: boolean }
  | { readonly kind: 'terminal'; readonly optional: boolean }
  | { readonly kind: 'group'; readonly alternatives: GbnfSequence[]; readonly optional: boolean };

export type GbnfSequence = GbnfElement[];

export interface GbnfRule {
  readonly name: string;
  readonly offset: number;
  readonly alternatives: GbnfSequence[];
}

export class GbnfSyntaxError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

const isWord = (c: string | undefined): boolean => c !== undefined && /[a-zA-Z0-9-]/.test(c);

export function parseGbnf(src: string): GbnfRule[] {
  let pos = 0;
  const fail = (what: string, at = pos): GbnfSyntaxError => new GbnfSyntaxError(at, what);
  const space = (newlines: boolean): void => {
    while (pos < src.length) {
      const c = src[pos];
      if (c === '#') while (pos < src.length && src[pos] !== '\n' && src[pos] !== '\r') pos++;
      else if (c === ' ' || c === '\t' || (newlines && (c === '\n' || c === '\r'))) pos++;
      else break;
    }
  };
  const name = (): string => {
    const start = pos;
    while (isWord(src[pos])) pos++;
    if (pos === start) throw fail('expecting name');
    return src.slice(start, pos);
  };
  const char = (): void => {
    if (src[pos] !== '\\') return void (pos += (src.codePointAt(pos) ?? 0) > 0xffff ? 2 : 1);
    const c = src[pos + 1];
    const hex = c === 'x' ? 2 : c === 'u' ? 4 : c === 'U' ? 8 : 0;
    if (hex > 0) {
      if (!new RegExp(`^[0-9a-fA-F]{${hex}}`).test(src.slice(pos + 2)))
        throw fail(`expecting ${hex} hex digits after '\\${c}'`);
      return void (pos += 2 + hex);
    }
    if (c === undefined || !'trn\\"[]'.includes(c)) throw fail(`unknown escape '\\${c ?? ''}'`);
    pos += 2;
  };
  const int = (): number => {
    const m = /^[0-9]+/.exec(src.slice(pos));
    if (!m) throw fail('expecting an int');
    pos += m[0].length;
    return Number(m[0]);
  };

  function sequence(nested: boolean): GbnfSequence {
    const items: GbnfElement[] = [];
    const repeat = (symbol: string, optional: boolean, at: number): void => {
      const last = items.pop();
      if (!last) throw fail(`expecting preceding item to '${symbol}'`, at);
      items.push({ ...last, optional: last.optional || optional });
    };
    while (pos < src.length) {
      const c = src[pos];
      const start = pos;
      if (c === '"') {
        pos++;
        while (src[pos] !== '"') {
          if (pos >= src.length) throw fail('unterminated string literal', start);
          char();
        }
        pos++;
        items.push({ kind: 'terminal', optional: pos - start === 2 });
      } else if (c === '[') {
        pos++;
        if (src[pos] === '^') pos++;
        while (src[pos] !== ']') {
          if (pos >= src.length) throw fail("unterminated character class: missing ']'", start);
          char();
          if (src[pos] === '-' && src[pos + 1] !== ']' && pos + 1 < src.length) (pos++, char());
        }
        pos++;
        items.push({ kind: 'terminal', optional: false });
      } else if (c === '<' || (c === '!' && src[pos + 1] === '<')) {
        const end = src.indexOf('>', pos);
        if (end < 0) throw fail("unterminated token reference: missing '>'", start);
        pos = end + 1;
        items.push({ kind: 'terminal', optional: false });
      } else if (isWord(c)) {
        items.push({ kind: 'ref', name: name(), offset: start, optional: false });
      } else if (c === '(') {
        pos++;
        space(true);
        const group = alternatives(true);
        if (src[pos] !== ')') throw fail("expecting ')'", pos);
        pos++;
        items.push({ kind: 'group', alternatives: group, optional: false });
      } else if (c === '.') (pos++, items.push({ kind: 'terminal', optional: false }));
      else if (c === '*' || c === '?' || c === '+') (pos++, repeat(c, c !== '+', start));
      else if (c === '{') {
        pos++;
        space(nested);
        const min = int();
        space(nested);
        let max: number | undefined = min;
        if (src[pos] === ',')
          (pos++, space(nested), (max = /[0-9]/.test(src[pos] ?? '') ? int() : undefined), space(nested));
        if (src[pos] !== '}') throw fail("expecting '}'");
        if (max !== undefined && max < min) throw fail(`repetition {${min},${max}} has max < min`, start);
        pos++;
        repeat('{', min === 0, start);
      } else break;
      space(nested);
    }
    return items;
  }

  function alternatives(nested: boolean): GbnfSequence[] {
    const out = [sequence(nested)];
    while (src[pos] === '|') (pos++, space(true), out.push(sequence(nested)));
    return out;
  }

  const rules: GbnfRule[] = [];
  space(true);
  while (pos < src.length) {
    const offset = pos;
    const ruleName = name();
    space(false);
    if (!src.startsWith('::=', pos)) throw fail("expecting '::='");
    pos += 3;
    space(true);
    rules.push({ name: ruleName, offset, alternatives: alternatives(false) });
    if (src[pos] === '\r') pos++;
    if (pos < src.length && src[pos] !== '\n') throw fail(`expecting newline or end, found '${src[pos]}'`);
    space(true);
  }
  return rules;
}
