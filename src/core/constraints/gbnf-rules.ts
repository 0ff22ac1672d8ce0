/**
 * A growing set of named GBNF rules: names are sanitized to what llama.cpp accepts
 * (`[a-zA-Z0-9-]`), a name clash with a different body gets a numeric suffix, and
 * `format()` writes `root` first and the rest in name order (as llama.cpp's converter does).
 */

/** Rule names may hold only letters, digits and `-` in llama.cpp's grammar parser. */
export function sanitizeRuleName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9-]+/g, '-').replace(/^-+|-+$/g, '');
  return clean === '' ? 'rule' : clean;
}

export class GbnfRules {
  private readonly rules = new Map<string, string>();

  /** Adds `name ::= body`; returns the name used (reused if an equal rule already has it). */
  add(name: string, body: string): string {
    const base = sanitizeRuleName(name);
    for (let i = 0; ; i++) {
      const key = i === 0 ? base : `${base}${i}`;
      const existing = this.rules.get(key);
      if (existing === undefined || existing === body) {
        this.rules.set(key, body);
        return key;
      }
    }
  }

  /** Reserves a fresh name (for a rule that refers to itself), to be filled with `set`. */
  reserve(name: string): string {
    const base = sanitizeRuleName(name);
    let key = base;
    for (let i = 1; this.rules.has(key); i++) key = `${base}${i}`;
    this.rules.set(key, '');
    return key;
  }

  /** Sets the body of a reserved (or any) rule. */
  set(name: string, body: string): void {
    this.rules.set(name, body);
  }

  has(name: string): boolean {
    return this.rules.has(name);
  }

  /** The grammar text: `root` first, then the other rules sorted by name. */
  format(): string {
    const names = [...this.rules.keys()].sort((a, b) =>
      a === 'root' ? -1 : b === 'root' ? 1 : a < b ? -1 : a > b ? 1 : 0,
    );
    return names.map((name) => `${name} ::= ${this.rules.get(name) ?? ''}\n`).join('');
  }
}
