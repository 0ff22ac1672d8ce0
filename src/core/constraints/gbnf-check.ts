/**
 * Checks a GBNF grammar the way llama.cpp will before the engine is woken: syntax (through
 * {@link parseGbnf}), a `root` rule, no reference to an undefined rule, no left recursion.
 * Errors are 400 `invalid_grammar` with line and column.
 */
import { InvalidRequestError } from '../domain/errors';
import type { GbnfElement, GbnfRule, GbnfSequence } from './gbnf-parse';
import { GbnfSyntaxError, parseGbnf } from './gbnf-parse';

function lineColumn(src: string, offset: number): string {
  const before = src.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

function grammarError(param: string, what: string): InvalidRequestError {
  return new InvalidRequestError(`Invalid grammar in '${param}': ${what}`, param, 'invalid_grammar');
}

function nullableRules(rules: ReadonlyMap<string, GbnfRule>): Set<string> {
  const nullable = new Set<string>();
  const element = (e: GbnfElement): boolean =>
    e.optional || (e.kind === 'ref' && nullable.has(e.name)) || (e.kind === 'group' && e.alternatives.some(sequence));
  const sequence = (s: GbnfSequence): boolean => s.every(element);
  for (let changed = true; changed;) {
    changed = false;
    for (const rule of rules.values()) {
      if (!nullable.has(rule.name) && rule.alternatives.some(sequence)) (nullable.add(rule.name), (changed = true));
    }
  }
  return nullable;
}

/** Rules that can be expanded first (leftmost) from `alternatives`. */
function leftRefs(alternatives: readonly GbnfSequence[], nullable: ReadonlySet<string>, out: Set<string>): void {
  for (const seq of alternatives) {
    for (const e of seq) {
      if (e.kind === 'ref') out.add(e.name);
      if (e.kind === 'group') leftRefs(e.alternatives, nullable, out);
      const empty =
        e.optional ||
        (e.kind === 'ref' && nullable.has(e.name)) ||
        (e.kind === 'group' && e.alternatives.some((s) => s.length === 0));
      if (!empty) break;
    }
  }
}

function findLeftCycle(rules: ReadonlyMap<string, GbnfRule>): string[] | null {
  const nullable = nullableRules(rules);
  const edges = new Map<string, Set<string>>();
  for (const rule of rules.values()) {
    const out = new Set<string>();
    leftRefs(rule.alternatives, nullable, out);
    edges.set(rule.name, out);
  }
  const state = new Map<string, 'open' | 'done'>();
  const walk = (name: string, path: string[]): string[] | null => {
    if (state.get(name) === 'open') return [...path.slice(path.indexOf(name)), name];
    if (state.get(name) === 'done') return null;
    state.set(name, 'open');
    for (const next of edges.get(name) ?? []) {
      const cycle = walk(next, [...path, name]);
      if (cycle) return cycle;
    }
    state.set(name, 'done');
    return null;
  };
  for (const name of rules.keys()) {
    const cycle = walk(name, []);
    if (cycle) return cycle;
  }
  return null;
}

function references(alternatives: readonly GbnfSequence[], out: { name: string; offset: number }[]): void {
  for (const seq of alternatives) {
    for (const e of seq) {
      if (e.kind === 'ref') out.push({ name: e.name, offset: e.offset });
      if (e.kind === 'group') references(e.alternatives, out);
    }
  }
}

/** Throws a 400 naming `param` unless `gbnf` is a grammar llama.cpp accepts. */
export function checkGbnf(gbnf: string, param: string): void {
  let parsed: GbnfRule[];
  try {
    parsed = parseGbnf(gbnf);
  } catch (error) {
    if (!(error instanceof GbnfSyntaxError)) throw error;
    throw grammarError(param, `${error.message} at ${lineColumn(gbnf, error.offset)}`);
  }
  const rules = new Map(parsed.map((rule) => [rule.name, rule]));
  const refs: { name: string; offset: number }[] = [];
  for (const rule of parsed) references(rule.alternatives, refs);
  const missing = refs.find((ref) => !rules.has(ref.name));
  if (missing) throw grammarError(param, `undefined rule '${missing.name}' at ${lineColumn(gbnf, missing.offset)}`);
  if (!rules.has('root')) throw grammarError(param, "the grammar has no 'root' rule");
  const cycle = findLeftCycle(rules);
  if (cycle) throw grammarError(param, `left recursion is not supported: ${cycle.join(' -> ')}`);
}
