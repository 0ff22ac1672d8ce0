import assert from 'node:assert/strict';
import { access, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { readmeSnippet } from './readme-snippet';
import { startStaticSite, type StaticSite } from './static-site';
import { makeTempApp, type TempApp } from './temp-app';

// The README's script-tag way in, as a user would do it: `npx inpage-llm init public --dropin`
// in an app folder, the README's HTML as public/index.html, served by a plain static server.
let app: TempApp;
let site: StaticSite;
let page: Page;

before(async () => {
  app = await makeTempApp();
  await app.sh(readmeSnippet('init-dropin'));
  await writeFile(join(app.dir, 'public', 'index.html'), readmeSnippet('script-tag'));
  site = await startStaticSite(join(app.dir, 'public'));
  ({ page } = await site.openPage('/'));
});

after(async () => {
  await site.close();
  await app.remove();
});

test('init --dropin copies the SW, the drop-in script and its engine files, and records the folder', async () => {
  for (const file of [
    'sw.js',
    'inpage-llm.js',
    'inpage-llm/engine-worker.js',
    'inpage-llm/llama-engine.wasm',
    'inpage-llm/llama-engine-relaxed.wasm',
    'inpage-llm/llama-engine-mt.wasm',
    'inpage-llm/llama-engine-relaxed-mt.wasm',
    'inpage-llm/llama-engine-mt.mjs',
    'inpage-llm/llama-engine-m64.wasm',
    'inpage-llm/llama-engine-relaxed-m64.wasm',
    'inpage-llm/llama-engine-m64-mt.wasm',
    'inpage-llm/llama-engine-relaxed-m64-mt.wasm',
    'inpage-llm/llama-engine-m64.mjs',
    'inpage-llm/llama-engine-m64-mt.mjs',
    'inpage-llm/llama-engine-webgpu.wasm',
    'inpage-llm/llama-engine-webgpu.mjs',
    'inpage-llm/webllm.js',
  ]) {
    await access(join(app.dir, 'public', file));
  }
  const pkg = JSON.parse(await readFile(join(app.dir, 'package.json'), 'utf8'));
  assert.deepEqual(pkg['inpage-llm'], { workerDirectory: ['public'], dropinDirectory: ['public'] });
  // A re-run without a folder (after an upgrade) re-copies into the recorded one, over the
  // sw.js the first run copied (test/e2e/init-rerun.test.ts: upgrades and foreign files).
  await rm(join(app.dir, 'public', 'inpage-llm'), { recursive: true });
  const output = await app.sh('npx inpage-llm init');
  assert.match(output, /copied into .*public \(sw\.js: current\)/);
  assert.match(output, /inpage-llm\/webllm\.js \(\d+ KB\): WebLLM/);
  assert.equal(
    await readFile(join(app.dir, 'public', 'sw.js'), 'utf8'),
    await readFile('dist/init/sw-dropin.js', 'utf8'),
  );
  await access(join(app.dir, 'public', 'inpage-llm', 'llama-engine.wasm'));
});

test("the README page's own fetch got the completion", async () => {
  await page.waitForFunction(() => document.body.textContent?.includes('defgh'));
});

test('the openai SDK gets non-stream and stream completions from the static page', async () => {
  const result = await page.evaluate(async () => {
    const client = new window.OpenAI({
      baseURL: location.origin + '/v1',
      apiKey: 'unused',
      dangerouslyAllowBrowser: true,
    });
    const whole = await client.completions.create({
      model: 'inpage-test',
      prompt: 'abc',
      max_tokens: 5,
      temperature: 0,
    });
    const stream = await client.completions.create({
      model: 'inpage-test',
      prompt: 'Wx',
      max_tokens: 6,
      temperature: 0,
      stream: true,
    });
    const texts: string[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      texts.push(chunk.choices[0]?.text ?? '');
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    return {
      whole: whole.choices[0]?.text,
      usage: whole.usage,
      chunks: texts.length,
      streamed: texts.join(''),
      finish,
    };
  });
  assert.equal(result.whole, 'defgh');
  assert.ok(result.usage);
  const { prompt_tokens, completion_tokens, total_tokens } = result.usage;
  assert.deepEqual(
    { prompt_tokens, completion_tokens, total_tokens },
    { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
  );
  assert.equal(result.streamed, 'yzabcd');
  assert.ok(result.chunks > 1, 'streamed in several chunks');
  assert.equal(result.finish, 'length');
});

test('the drop-in runs its engine from the files beside it, and its SW is current', async () => {
  const state = await page.evaluate(async () => ({
    sw: navigator.serviceWorker.controller?.scriptURL,
    engine: performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => name.includes('engine-worker')),
    model: window.inpage.model,
  }));
  assert.equal(state.sw, `${site.origin}/sw.js`);
  assert.deepEqual(state.engine, [`${site.origin}/inpage-llm/engine-worker.js`]);
  assert.equal(state.model, 'inpage-test');
  const stale = site.consoleMessages.filter((message) => /Service Worker .* expects/.test(message));
  assert.deepEqual(stale, [], 'no stale-SW warning when the copied SW matches');
});

test('data-api-key is enforced, data-route-prefix moves the endpoint, a bad data-backend is a console.error', async () => {
  const html =
    '<!doctype html><script src="/inpage-llm.js" data-model="inpage-test" data-api-key="sk-x" data-route-prefix="/api" data-backend="gpu"></script>';
  await writeFile(join(app.dir, 'public', 'attributes.html'), html);
  const { context, page: keyed } = await site.openPage('/attributes.html');
  const errors = site.consoleMessages.filter((message) => message.startsWith('error: [inpage-llm]'));
  assert.equal(errors.length, 1, errors.join('\n'));
  assert.ok(errors.some((message) => message.includes('data-backend="gpu"')));
  const statuses = await keyed.evaluate(async () => {
    const post = (path: string, headers: Record<string, string>) =>
      fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ model: 'inpage-test', prompt: 'a', max_tokens: 1 }),
      }).then((r) => r.status);
    return [
      await post('/api/completions', {}),
      await post('/api/completions', { authorization: 'Bearer sk-x' }),
      await post('/v1/completions', { authorization: 'Bearer sk-x' }),
    ];
  });
  // /v1 is no longer the endpoint on this page: the static server's own 404.
  assert.deepEqual(statuses, [401, 200, 404]);
  await context.close();
});
