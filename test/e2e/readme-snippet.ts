/**
 * The documentation's copy-paste snippets, read by the specs that run them verbatim: each is the
 * first fenced block after a `<!-- snippet: NAME -->` line, in README.md or in one page of
 * docs/. Editing a snippet edits the test; `test/unit/doc-snippets.test.ts` checks that every
 * marked snippet is read by some test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
/** A marker is a line of its own (a page may mention the syntax in running text). */
const MARKER = /^<!-- snippet: ([\w-]+) -->$/gm;

/** The files snippets may live in, relative to the repository root: README.md and docs/*.md. */
export function snippetFiles(): string[] {
  const pages = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
  return ['README.md', ...pages.sort().map((name) => `docs/${name}`)];
}

/** Every snippet marker of those files: its name, the file that holds it and where it ends. */
export function snippetMarkers(): Array<{ name: string; file: string; end: number }> {
  return snippetFiles().flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(MARKER)].map((match) => ({
      name: match[1] ?? '',
      file,
      end: match.index + match[0].length,
    })),
  );
}

/** The snippet `name`, from whichever file holds its marker (exactly one must). */
export function readmeSnippet(name: string): string {
  const marker = `<!-- snippet: ${name} -->`;
  const [found, ...more] = snippetMarkers().filter((candidate) => candidate.name === name);
  if (!found) throw new Error(`No README.md or docs/*.md has ${marker}`);
  if (more.length > 0)
    throw new Error(`${marker} is in ${[found, ...more].map((m) => m.file).join(' and ')}: keep one`);
  const text = readFileSync(join(ROOT, found.file), 'utf8');
  const block = /```[\w-]*\n([\s\S]*?)```/.exec(text.slice(found.end));
  if (!block?.[1]) throw new Error(`${found.file}: no fenced block after ${marker}`);
  return block[1];
}
