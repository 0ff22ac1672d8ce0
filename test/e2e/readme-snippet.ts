/**
 * The documentation's copy-paste snippets, read by the specs that run them verbatim: each is the
 * first fenced block after a `<!-- snippet: NAME -->` comment, in README.md or in one page of
 * docs/. Editing a snippet edits the test; `test/unit/doc-snippets.test.ts` checks that every
 * marked snippet is read by some test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const MARKER = /<!-- snippet: ([\w-]+) -->/g;

/** The files snippets may live in, relative to the repository root: README.md and docs/*.md. */
export function snippetFiles(): string[] {
  const pages = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
  return ['README.md', ...pages.sort().map((name) => `docs/${name}`)];
}

/** Every snippet marker of those files: its name and the file that holds it. */
export function snippetMarkers(): Array<{ name: string; file: string }> {
  return snippetFiles().flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(MARKER)].map((match) => ({ name: match[1] ?? '', file })),
  );
}

/** The snippet `name`, from whichever file holds its marker (exactly one must). */
export function readmeSnippet(name: string): string {
  const marker = `<!-- snippet: ${name} -->`;
  const holders = snippetFiles().filter((file) => readFileSync(join(ROOT, file), 'utf8').includes(marker));
  if (holders.length === 0) throw new Error(`No README.md or docs/*.md has ${marker}`);
  if (holders.length > 1) throw new Error(`${marker} is in ${holders.join(' and ')}: keep one`);
  const file = holders[0] ?? '';
  const text = readFileSync(join(ROOT, file), 'utf8');
  const block = /```[\w-]*\n([\s\S]*?)```/.exec(text.slice(text.indexOf(marker) + marker.length));
  if (!block?.[1]) throw new Error(`${file}: no fenced block after ${marker}`);
  return block[1];
}
