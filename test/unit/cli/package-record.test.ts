import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readPackageJson, readRecord, saveRecord } from '../../../cli/package-record';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inpage-record-'));
});

afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the init record in package.json', () => {
  it('records folders once each, relative with /, keeping other keys', async () => {
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'app', 'inpage-llm': { other: 1 } }));
    let pkg = await readPackageJson(dir);
    expect(pkg).not.toBeNull();
    if (!pkg) return;
    await saveRecord(dir, pkg, 'public', false);
    await saveRecord(dir, pkg, join(dir, 'static', 'www'), true);
    await saveRecord(dir, pkg, './public', true);
    pkg = await readPackageJson(dir);
    expect(pkg?.['inpage-llm']).toEqual({
      other: 1,
      workerDirectory: ['public', 'static/www'],
      dropinDirectory: ['static/www', 'public'],
    });
    expect(pkg?.name).toBe('app');
    expect(await readFile(join(dir, 'package.json'), 'utf8')).toMatch(/\n$/);
  });

  it("reads msw-style string values and ignores what isn't a folder list", () => {
    expect(readRecord({ 'inpage-llm': { workerDirectory: 'public', dropinDirectory: [1, 'x'] } })).toEqual({
      workerDirectory: ['public'],
      dropinDirectory: ['x'],
    });
    expect(readRecord(null)).toEqual({ workerDirectory: [], dropinDirectory: [] });
  });

  it('no package.json: null', async () => {
    expect(await readPackageJson(dir)).toBeNull();
  });
});
