import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { injectPrecache } from '../../../cli/inject-precache';

let dir: string;
const template = () => join(dir, 'template.js');

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inpage-precache-'));
  await writeFile(template(), '// inpage-llm service worker {}\nconst m = self.__WB_MANIFEST;');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function files(paths: Record<string, string | number>): Promise<string> {
  const dist = join(dir, 'dist');
  for (const [path, content] of Object.entries(paths)) {
    await mkdir(join(dist, path, '..'), { recursive: true });
    await writeFile(join(dist, path), typeof content === 'number' ? Buffer.alloc(content) : content);
  }
  return dist;
}

describe('injectPrecache', () => {
  it("injects the app shell, leaves out WebLLM's chunk, maps, big files and the SW itself", async () => {
    const dist = await files({
      'index.html': '<p>',
      'assets/app-1234abcd.js': 'x',
      'assets/engine.wasm': 3 * 1024 * 1024,
      'assets/webllm-DBWAiD2g.js': 'w',
      'inpage-llm/webllm.js': 'w',
      'assets/app.js.map': '{}',
      'sw.js': 'old',
      'huge.wasm': 2 * 1024 * 1024 + 1,
      README: 'r',
    });
    const result = await injectPrecache(template(), dist, { maxBytes: 4 * 1024 * 1024 - 1 });
    expect(result.included.map((file) => file.path)).toEqual([
      'assets/app-1234abcd.js',
      'assets/engine.wasm',
      'huge.wasm',
      'index.html',
    ]);
    expect(result.skipped.map((file) => file.path).sort()).toEqual([
      'assets/webllm-DBWAiD2g.js',
      'inpage-llm/webllm.js',
    ]);
    expect(result.totalBytes).toBe(1 + 3 * 1024 * 1024 + 2 * 1024 * 1024 + 1 + 3);
    const sw = await readFile(join(dist, 'sw.js'), 'utf8');
    expect(sw.startsWith('// inpage-llm service worker {}\n')).toBe(true);
    const manifest = JSON.parse(sw.slice(sw.indexOf('['), sw.lastIndexOf(']') + 1)) as Array<{
      url: string;
      revision: string;
    }>;
    expect(manifest.map((entry) => entry.url)).toEqual(result.included.map((file) => file.path));
    expect(manifest.every((entry) => /^[0-9a-f]{32}$/.test(entry.revision))).toBe(true);
  });

  it('skips files over the size limit and says why', async () => {
    const dist = await files({ 'index.html': '<p>', 'big.wasm': 2048 });
    const result = await injectPrecache(template(), dist, { maxBytes: 1024 });
    expect(result.skipped).toEqual([
      expect.objectContaining({ path: 'big.wasm', reason: expect.stringMatching(/--max-size/) }),
    ]);
  });

  it('makes URLs relative to a Service Worker in a sub-folder', async () => {
    const dist = await files({ 'app/index.html': '<p>', 'app/main.js': 'x' });
    await injectPrecache(template(), dist, { swDest: 'app/sw.js' });
    expect(await readFile(join(dist, 'app', 'sw.js'), 'utf8')).toMatch(/"url":"index.html".*"url":"main.js"/);
  });

  it('fails clearly on a missing folder, an empty build and a template without the placeholder', async () => {
    await expect(injectPrecache(template(), join(dir, 'nope'))).rejects.toThrow(
      /is not a folder: pass your build output folder/,
    );
    const empty = await files({ 'notes.txt': 'x' });
    await expect(injectPrecache(template(), empty)).rejects.toThrow(/found nothing to precache/);
    await writeFile(template(), 'no placeholder');
    await expect(injectPrecache(template(), await files({ 'index.html': '<p>' }))).rejects.toThrow(
      /not the precache template/,
    );
  });
});
