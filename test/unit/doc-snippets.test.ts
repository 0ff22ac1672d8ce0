/**
 * The snippets the documentation marks with `<!-- snippet: NAME -->` (README.md, docs/*.md) are
 * the ones the e2e specs run verbatim: each marked snippet is read by some test, each name a
 * test reads is marked exactly once, and each marker has its fenced block.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readmeSnippet, snippetMarkers } from '../e2e/readme-snippet';

const ROOT = resolve(import.meta.dirname, '../..');

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The snippet names the tests read (readmeSnippet calls with a literal name). */
function namesRead(): Set<string> {
  const calls = testFiles('test').flatMap((file) => [
    ...readFileSync(join(ROOT, file), 'utf8').matchAll(/readmeSnippet\('([\w-]+)'\)/g),
  ]);
  return new Set(calls.map((call) => call[1] ?? ''));
}

describe('documentation snippets', () => {
  const markers = snippetMarkers();

  it('finds the markers', () => {
    expect(markers.length).toBeGreaterThan(0);
  });

  it.each(markers)('$name ($file) is read by a test', ({ name }) => {
    expect(namesRead()).toContain(name);
  });

  it('marks each name once', () => {
    const names = markers.map((marker) => marker.name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it.each([...namesRead()])('%s, read by a test, is marked and has its block', (name) => {
    expect(readmeSnippet(name).length).toBeGreaterThan(0);
  });
});
