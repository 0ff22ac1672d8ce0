/**
 * The source tree is split by execution context, and only the shared core crosses contexts:
 * this reads every import in `src/` and `worker/` and fails on one that reaches into another
 * context's internals.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Each context and the folders its files may import from (besides its own and packages). */
const CONTEXTS: Record<string, string[]> = {
  'src/core': [],
  'src/gguf': ['src/core'],
  'src/builtin-model': ['src/core', 'src/gguf'],
  'src/page': ['src/core', 'src/gguf', 'src/builtin-model'],
  'worker/sw': ['src/core'],
  'worker/engine': ['src/core', 'src/gguf', 'src/builtin-model'],
};
/** Files outside the contexts: the library's entry (the page's public surface). */
const ENTRIES: Record<string, string[]> = { 'src/index.ts': ['src/core', 'src/page', 'src/builtin-model'] };

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.(ts|mts)$/.test(entry.name) ? [path] : [];
  });
}

/** The package's `imports` aliases: `#core/` -> `src/core/`. */
const ALIASES: Array<[string, string]> = Object.keys(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { imports: Record<string, string> }).imports,
).map((alias) => [alias.replace(/\*$/, ''), `src/${alias.slice(1).replace(/\*$/, '')}`]);

/** A relative or `#alias/` import, resolved from the repo root. */
function importTarget(file: string, spec: string): string {
  const alias = ALIASES.find(([prefix]) => spec.startsWith(prefix));
  if (alias) return join(alias[1], spec.slice(alias[0].length));
  return relative(ROOT, resolve(ROOT, dirname(file), spec));
}

/** The relative and aliased imports of a file (static, dynamic, and `export ... from`), resolved from the repo root. */
export function relativeImports(file: string, source: string): string[] {
  const specs = [...source.matchAll(/(?:from|import)\s*\(?\s*['"]((?:\.{1,2}\/|#)[^'"?]+)/g)].map(
    (match) => match[1] ?? '',
  );
  return specs.map((spec) => importTarget(file, spec));
}

const contextOf = (path: string): string | undefined =>
  Object.keys(CONTEXTS).find((context) => path === context || path.startsWith(`${context}/`));

/** What is wrong with one file's imports. */
function checkFile(file: string, source: string): string[] {
  const own = contextOf(file);
  const allowed = own !== undefined ? [own, ...(CONTEXTS[own] ?? [])] : ENTRIES[file];
  if (!allowed) return [`${file}: not in any context (add it to a context folder)`];
  return relativeImports(file, source)
    .filter((target) => {
      const context = contextOf(target);
      return context === undefined || !allowed.includes(context);
    })
    .map((target) => `${file} imports ${target}`);
}

const violations = (): string[] =>
  [...files('src'), ...files('worker')].flatMap((file) => checkFile(file, readFileSync(join(ROOT, file), 'utf8')));

describe('import boundaries', () => {
  it('no file imports another context’s internals (only src/core and the shared libraries cross)', () => {
    expect(violations()).toStrictEqual([]);
  });

  it.each([
    [
      'src/page/x.ts',
      "import type { EngineHost } from '../../worker/engine/engine-host';",
      'worker/engine/engine-host',
    ],
    ['worker/sw/x.ts', "export { runGeneration } from '../engine/run-generation';", 'worker/engine/run-generation'],
    ['src/core/x.ts', "const m = await import('../page/start-inpage');", 'src/page/start-inpage'],
    ['worker/engine/x.ts', "import { toUsage } from '../sw/usage';", 'worker/sw/usage'],
    ['worker/sw/x.ts', "import { v } from '#gguf/vocabulary';", 'src/gguf/vocabulary'],
  ])('sees a violation: %s importing %s', (file, source, target) => {
    expect(checkFile(file, source)).toStrictEqual([`${file} imports ${target}`]);
  });

  it('allows the core and the shared libraries', () => {
    expect(
      checkFile(
        'worker/engine/x.ts',
        "import { GREEDY } from '../../src/core/domain/parameters';\nimport { v } from '../../src/gguf/vocabulary';",
      ),
    ).toStrictEqual([]);
    expect(checkFile('src/page/x.ts', "import type { EngineApi } from '../core/engine-api';")).toStrictEqual([]);
  });
});
