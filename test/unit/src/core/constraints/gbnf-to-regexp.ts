/**
 * Test helper: a non-recursive GBNF grammar -> an anchored JavaScript RegExp with the same
 * language (rules inlined), so tests can check which strings a grammar accepts.
 */
const TOKEN = /\s+|#[^\n]*|"(?:[^"\\]|\\.)*"|\[(?:[^\]\\]|\\.)*\]|[a-zA-Z0-9-]+|\{[0-9]+(?:,[0-9]*)?\}|[()|*+?.]/gy;

function decodeLiteral(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, e: string) => {
    if (e.length > 1) return String.fromCodePoint(Number.parseInt(e.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[e] ?? e;
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function gbnfToRegExp(gbnf: string): RegExp {
  const rules = new Map<string, string>();
  for (const line of gbnf.split('\n')) {
    const m = /^([a-zA-Z0-9-]+) ::= (.*)$/.exec(line);
    if (m) rules.set(m[1] as string, m[2] as string);
  }
  const expand = (name: string, depth: number): string => {
    if (depth > 40) throw new Error(`recursive rule ${name}`);
    const body = rules.get(name);
    if (body === undefined) throw new Error(`undefined rule ${name}`);
    let out = '';
    TOKEN.lastIndex = 0;
    const tokens: string[] = [];
    for (let m = TOKEN.exec(body); m && TOKEN.lastIndex <= body.length; m = TOKEN.exec(body)) {
      tokens.push(m[0]);
      if (TOKEN.lastIndex === body.length) break;
    }
    for (const t of tokens) {
      if (/^\s|^#/.test(t)) continue;
      if (t.startsWith('"')) out += `(?:${escapeRegExp(decodeLiteral(t.slice(1, -1)))})`;
      else if (t.startsWith('['))
        out += t.replace(/\\U([0-9a-fA-F]{8})/g, (_, h: string) => `\\u{${h.replace(/^0+/, '')}}`);
      else if (/^[a-zA-Z0-9-]+$/.test(t)) out += `(?:${expand(t, depth + 1)})`;
      else if (t === '.') out += '[^]';
      else out += t;
    }
    return out;
  };
  return new RegExp(`^(?:${expand('root', 0)})$`, 'u');
}
