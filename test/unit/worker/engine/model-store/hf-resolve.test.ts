import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHfId, type HfId } from '../../../../../src/core/domain/hf-id';
import { startFakeHf, type FakeHf } from '../../../../e2e/fake-hf-server';
import { resolveHf, type HfResolution } from '../../../../../worker/engine/model-store/hf-resolve';

/** A distinct fake file per path, so a wrong pick shows in the bytes. */
const bytesOf = (path: string) => new TextEncoder().encode(`GGUF ${path} `.repeat(3));
const repo = (...paths: string[]) => Object.fromEntries(paths.map((path) => [path, bytesOf(path)]));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const REPOS = {
  'org/multi-GGUF': repo(
    'README.md',
    'aaa-imatrix-Q4_K_M.gguf',
    'mmproj-model-f16.gguf',
    'mmproj-model-Q8_0.gguf',
    'model-F16.gguf',
    'model-Q8_0.gguf',
    'model-q4_k_m.gguf',
  ),
  'org/split-GGUF': repo(
    'Q4_K_M/big-Q4_K_M-00002-of-00003.gguf',
    'Q4_K_M/big-Q4_K_M-00003-of-00003.gguf',
    'Q4_K_M/big-Q4_K_M-00001-of-00003.gguf',
    'Q8_0/big-Q8_0-00001-of-00002.gguf',
    'Q8_0/big-Q8_0-00002-of-00002.gguf',
    'Q8_0/mmproj-Q8_0.gguf',
    'mmproj-F16.gguf',
  ),
  'org/q8-GGUF': repo('m-F16.gguf', 'm-Q8_0.gguf'),
  'org/other-GGUF': repo('x-IQ2_XXS.gguf', 'x-BF16.gguf'),
  'org/empty': repo('README.md', 'config.json'),
  'org/broken-split-GGUF': repo('b-Q4_K_M-00001-of-00003.gguf', 'b-Q4_K_M-00003-of-00003.gguf'),
};

let hf: FakeHf;
beforeAll(async () => {
  hf = await startFakeHf({ repos: REPOS });
});
afterAll(() => hf.close());

const idOf = (text: string): HfId => parseHfId(`hf:${text}`) ?? { repo: text };
const resolve = (text: string, endpoint = hf.endpoint) => resolveHf(idOf(text), endpoint);
const paths = (resolution: HfResolution) => resolution.files.map((file) => file.path);

describe('resolveHf (llama.cpp -hf rules)', () => {
  it('picks the quant case-insensitively, and the mmproj nearest its bits', async () => {
    const q4 = await resolve('org/multi-GGUF:Q4_K_M');
    expect(paths(q4)).toStrictEqual(['model-q4_k_m.gguf']);
    expect(q4.mmproj?.path).toBe('mmproj-model-Q8_0.gguf');
    expect(paths(await resolve('org/multi-GGUF:q8_0'))).toStrictEqual(['model-Q8_0.gguf']);
    expect((await resolve('org/multi-GGUF:f16')).mmproj?.path).toBe('mmproj-model-f16.gguf');
  });

  it('defaults to Q4_K_M, then Q8_0, then the first GGUF model (sidecars never)', async () => {
    expect(paths(await resolve('org/multi-GGUF'))).toStrictEqual(['model-q4_k_m.gguf']);
    expect(paths(await resolve('org/q8-GGUF'))).toStrictEqual(['m-Q8_0.gguf']);
    const other = await resolve('org/other-GGUF');
    expect(paths(other)).toStrictEqual(['x-BF16.gguf']);
    expect(other.mmproj).toBeUndefined();
  });

  it('gives a split model’s parts in order, and an mmproj from a folder above (not a sibling folder)', async () => {
    const q4 = await resolve('org/split-GGUF');
    expect(paths(q4)).toStrictEqual([1, 2, 3].map((i) => `Q4_K_M/big-Q4_K_M-0000${i}-of-00003.gguf`));
    expect(q4.mmproj?.path).toBe('mmproj-F16.gguf');
    const q8 = await resolve('org/split-GGUF:Q8_0');
    expect(paths(q8)).toStrictEqual(['Q8_0/big-Q8_0-00001-of-00002.gguf', 'Q8_0/big-Q8_0-00002-of-00002.gguf']);
    expect(q8.mmproj?.path).toBe('Q8_0/mmproj-Q8_0.gguf');
  });

  it('takes an explicit file path, with its URL, size and sha256 (the LFS oid)', async () => {
    const { files, mmproj } = await resolve('org/multi-GGUF/model-F16.gguf');
    const bytes = bytesOf('model-F16.gguf');
    expect(files).toStrictEqual([
      {
        url: `${hf.endpoint}org/multi-GGUF/resolve/main/model-F16.gguf`,
        path: 'model-F16.gguf',
        size: bytes.length,
        sha256: sha256(bytes),
      },
    ]);
    expect(mmproj?.path).toBe('mmproj-model-f16.gguf');
    expect(mmproj?.sha256).toBe(sha256(bytesOf('mmproj-model-f16.gguf')));
  });

  it('follows the file URL’s redirect to the CDN, ranges and all', async () => {
    const [file] = (await resolve('org/multi-GGUF:Q8_0')).files;
    const response = await fetch(file?.url ?? '', { headers: { range: 'bytes=5-9' } });
    expect(response.status).toBe(206);
    expect(response.url.startsWith(hf.cdn.url)).toBe(true);
    expect(new Uint8Array(await response.arrayBuffer())).toStrictEqual(bytesOf('model-Q8_0.gguf').subarray(5, 10));
    expect(hf.cdn.requests.at(-1)).toMatchObject({
      path: hf.cdnPath('org/multi-GGUF', 'model-Q8_0.gguf'),
      range: 'bytes=5-9',
    });
  });

  const failure = async (text: string, endpoint?: string) => {
    const error: unknown = await resolve(text, endpoint).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ status: 503 });
    return error as { code: string; message: string };
  };

  it('fails to load a missing repo, one with no GGUF, a missing quant (naming those there) or file', async () => {
    expect(await failure('org/nope')).toMatchObject({
      code: 'model_load_failed',
      message: expect.stringContaining("'org/nope'"),
    });
    expect(await failure('org/empty')).toMatchObject({
      code: 'model_load_failed',
      message: expect.stringContaining('no GGUF'),
    });
    const quant = await failure('org/multi-GGUF:Q5_K_M');
    expect(quant.code).toBe('model_load_failed');
    expect(quant.message).toContain("'org/multi-GGUF'");
    expect(quant.message).toMatch(/Q5_K_M.*F16, Q8_0, Q4_K_M\.$/);
    expect((await failure('org/multi-GGUF/nope.gguf')).message).toContain('model-F16.gguf, model-Q8_0.gguf');
    expect((await failure('org/broken-split-GGUF')).message).toContain('lacks parts');
  });

  it('says 401 (huggingface.co without a token) is a missing repo too', async () => {
    const locked = await startFakeHf({ repos: {}, missingStatus: 401 });
    try {
      expect(await failure('org/multi-GGUF', locked.endpoint)).toMatchObject({ code: 'model_load_failed' });
    } finally {
      await locked.close();
    }
  });

  it('fails to download when the network does', async () => {
    const closed = await startFakeHf({ repos: {} });
    await closed.close();
    expect(await failure('org/multi-GGUF', closed.endpoint)).toMatchObject({ code: 'model_download_failed' });
    const down = () => Promise.resolve(new Response('busy', { status: 503 }));
    await expect(resolveHf({ repo: 'a/b' }, hf.endpoint, down)).rejects.toMatchObject({
      code: 'model_download_failed',
    });
  });

  it('reads every page of the tree API', async () => {
    const paged = await startFakeHf({ repos: REPOS, treePageSize: 2 });
    try {
      const q8 = await resolve('org/split-GGUF:Q8_0', paged.endpoint);
      expect(paths(q8)).toHaveLength(2);
      expect(paged.hub.requests.filter((request) => request.path.includes('/tree/')).length).toBeGreaterThan(3);
    } finally {
      await paged.close();
    }
  });

  it('keeps a file out of LFS without a sha256 (its oid is a Git SHA-1)', async () => {
    const tree = [{ type: 'file', path: 'm-Q4_K_M.gguf', size: 7, oid: 'a'.repeat(40) }];
    const fetchTree = () => Promise.resolve(Response.json(tree));
    const { files } = await resolveHf({ repo: 'a/b' }, 'https://hf.example', fetchTree);
    expect(files).toStrictEqual([
      { url: 'https://hf.example/a/b/resolve/main/m-Q4_K_M.gguf', path: 'm-Q4_K_M.gguf', size: 7 },
    ]);
  });
});

describe('the fake Hugging Face', () => {
  const file = 'model-Q8_0.gguf';
  const url = () => `${hf.endpoint}org/multi-GGUF/resolve/main/${file}`;

  it('redirects resolve to the CDN with X-Linked-Size and X-Linked-ETag, and answers HEAD so', async () => {
    const response = await fetch(url(), { method: 'HEAD', redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(new RegExp(`^${hf.cdn.url}/org/multi-GGUF/${file}\\?`));
    expect(response.headers.get('x-linked-size')).toBe(String(bytesOf(file).length));
    expect(response.headers.get('x-linked-etag')).toBe(`"${sha256(bytesOf(file))}"`);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers an unknown repo as Hugging Face does', async () => {
    const response = await fetch(`${hf.endpoint}api/models/org/nope/tree/main?recursive=true`);
    expect(response.status).toBe(404);
    expect(response.headers.get('x-error-code')).toBe('RepoNotFound');
    expect(await response.json()).toStrictEqual({ error: 'Repository not found' });
  });

  it('serves ranges on the CDN, the whole file when If-Range names another version, and cuts', async () => {
    const path = hf.cdnPath('org/multi-GGUF', file);
    const bytes = bytesOf(file);
    const whole = await fetch(hf.cdn.url + path, { headers: { range: 'bytes=3-', 'if-range': '"old"' } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const etag = whole.headers.get('etag') ?? '';
    expect(new Uint8Array(await whole.arrayBuffer())).toStrictEqual(bytes);
    const tail = await fetch(hf.cdn.url + path, { headers: { range: 'bytes=3-', 'if-range': etag } });
    expect([tail.status, tail.headers.get('content-range')]).toStrictEqual([
      206,
      `bytes 3-${bytes.length - 1}/${bytes.length}`,
    ]);
    await tail.arrayBuffer();
    const before = hf.cdn.bytesSent(path);
    hf.cdn.cutAfter(path, 10);
    const cut = await fetch(hf.cdn.url + path);
    await expect(cut.arrayBuffer()).rejects.toThrow();
    expect(hf.cdn.bytesSent(path) - before).toBe(10);
    expect((await fetch(hf.cdn.url + path, { headers: { range: `bytes=${bytes.length}-` } })).status).toBe(416);
  });
});
