/**
 * The links between README.md and docs/*.md: each relative link names a file that exists, and
 * each `#anchor` a heading of its target, with GitHub's heading ids; and the README stays an
 * overview (at most 12 KB: the rest lives in docs/).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced blocks and code spans, where links and headings are. */
function prose(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, (span) => (span.includes('[') ? '' : span));
}

/** GitHub's ids of a page's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const ids = [...prose(file).matchAll(/^#{1,6} (.+)$/gm)].map((match) => {
    const id = (match[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_ -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(id) ?? 0;
    seen.set(id, count + 1);
    return count === 0 ? id : `${id}-${count}`;
  });
  return new Set(ids);
}

const links = pages.flatMap((file) =>
  [...prose(file).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => ({ file, target })),
);

describe('documentation links', () => {
  it('finds the links', () => {
    expect(links.length).toBeGreaterThan(20);
  });

  it.each(links)('$file -> $target', ({ file, target }) => {
    const [path = '', anchor] = target.split('#');
    const linked = path === '' ? file : normalize(join(dirname(file), path));
    expect(existsSync(join(ROOT, linked)), `${linked} exists`).toBe(true);
    if (anchor !== undefined && linked.endsWith('.md')) expect([...anchors(linked)]).toContain(anchor);
  });
});

describe('the README', () => {
  it('stays at most 12 KB (what it is, the two commands, the ways in, the features; the rest in docs/)', () => {
    expect(readFileSync(join(ROOT, 'README.md')).length).toBeLessThanOrEqual(12 * 1024);
  });
});
