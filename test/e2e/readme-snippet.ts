/**
 * The README's copy-paste snippets, read by the specs that run them verbatim: each is the first
 * fenced block after a `<!-- snippet: NAME -->` comment. Editing a snippet edits the test.
 */
import { readFileSync } from 'node:fs';

export function readmeSnippet(name: string): string {
  const readme = readFileSync('README.md', 'utf8');
  const marker = `<!-- snippet: ${name} -->`;
  const at = readme.indexOf(marker);
  if (at < 0) throw new Error(`README.md has no ${marker}`);
  const block = /```[\w-]*\n([\s\S]*?)```/.exec(readme.slice(at + marker.length));
  if (!block?.[1]) throw new Error(`README.md: no fenced block after ${marker}`);
  return block[1];
}
