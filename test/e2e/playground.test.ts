import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { loadSdk } from './sdk-scripts';
import { openaiScript, startHarness, WEBGPU_EVERYWHERE, type Harness } from './harness';
import { axeViolations } from './page-helpers';

// The playground in real Chromium: its states (screenshots under test-results/), the streamed
// output with its numbers, the code panel's code run as-is, Stop, engine busy, a failed load
// offering inpage-test, keyboard use and an axe accessibility check.
const SHOTS = 'test-results/playground';
let harness: Harness;
/** One page for the specs that run requests (a new context costs seconds: SW install, precache). */
let page: Page;

before(async () => {
  await mkdir(SHOTS, { recursive: true });
  harness = await startHarness();
  page = await open();
});

after(() => harness.close());

async function open(path = '/?model=inpage-test', waitReady = true): Promise<Page> {
  const { page } = await harness.openPage(path, { waitReady });
  await page.setViewportSize({ width: 1280, height: 1000 });
  return page;
}

/** Back to the default form (a reload: the SW and its cache stay). */
async function reset(): Promise<void> {
  await page.reload();
  await page.evaluate(() => window.inpage.ready);
  await page.addScriptTag({ content: await openaiScript() });
}

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
const text = async (page: Page, selector: string) => (await page.locator(selector).textContent())?.trim() ?? '';
const waitStatus = (page: Page, pattern: RegExp, timeout = 15_000) =>
  page.locator('#run-status').filter({ hasText: pattern }).waitFor({ timeout });

async function generate(page: Page, prompt: string, maxTokens: number): Promise<void> {
  await page.locator('#prompt').fill(prompt);
  await page.locator('#max_tokens').fill(String(maxTokens));
  await page.locator('#generate').click();
}

/** Runs code from the code panel in the page (console.log collected; the SDK import mapped to window.OpenAI). */
function runPanelCode(page: Page, code: string): Promise<string> {
  const body = code
    .replace("import OpenAI from 'openai';", 'const OpenAI = window.OpenAI;')
    .replace("import Anthropic from '@anthropic-ai/sdk';", 'const { Anthropic } = window;');
  return page.evaluate((source) => {
    const run = new Function('console', `return (async () => { ${source} })();`);
    const logs: string[] = [];
    const log = (...values: unknown[]) => logs.push(values.join(' '));
    return Promise.resolve(run({ log })).then(() => logs.join(''));
  }, body);
}

test('ready: the picker shows the catalogue and GET /v1/models, the bar says ready', async () => {
  await page.locator('model-picker td', { hasText: 'ready' }).waitFor();
  const option = await text(page, '#model option:first-child');
  assert.match(
    option,
    /^inpage-test: built-in test model · llamacpp · built in, no download, works offline \(running\)$/,
  );
  assert.match(await text(page, '#phase'), /^ready/);
  // One "Model" label, not two stacked: the bar names the running model, the picker offers others.
  assert.equal(await text(page, 'load-progress #label'), 'Running inpage-test');
  assert.equal(await text(page, 'model-picker label'), 'Load another model');
  // Load is not offered for the model already running.
  assert.equal(await page.locator('#load').isDisabled(), true);
  assert.equal(await text(page, '#load'), 'Running');
  // Why abc becomes defgh.
  assert.match(await text(page, '#model-note'), /continues letters and digits in order \(abc → defgh/);
  const cells = await page.locator('model-picker tbody td').allTextContents();
  assert.deepEqual(cells.slice(0, 4), ['inpage-test', 'llamacpp', 'ready', '4096']);
  // Where it runs: on the CPU, for want of WebGPU here (docs/webgpu.md).
  assert.match(cells[4] ?? '', /^cpu \(no (WebGPU|WebGPU adapter|shader-f16)\)$/);
  assert.equal(cells.length, 5);
  await shot(page, 'ready');
});

test('a streamed completion shows text, time to first token and tokens/s; the code panel code reproduces it', async () => {
  await reset();
  await generate(page, 'abc', 5);
  await waitStatus(page, /Done: finish_reason length/);
  assert.equal(await text(page, '#output'), 'defgh');
  assert.match(await text(page, '#ttft'), /^\d+ ms$/);
  assert.equal(await text(page, '#tokens'), '5', 'exact count from usage');
  assert.equal(await text(page, '#prompt-tokens'), '3');
  assert.match(await text(page, '#prefill-tps'), /^\d+$/);
  assert.match(await text(page, '#decode-tps'), /^\d+$/);
  assert.match(await text(page, '#code-note'), /README's\s+snippet\s+plus\s+stream_options.*maxRetries: 0/s);
  await shot(page, 'streamed');

  const sdk = await text(page, '#code');
  assert.match(sdk, /"prompt": "abc"/);
  assert.match(sdk, /"max_tokens": 5/);
  assert.equal(await runPanelCode(page, sdk), 'defgh');
  await page.locator('#tab-fetch').click();
  const viaFetch = await text(page, '#code');
  assert.match(viaFetch, /fetch\('\/v1\/completions'/);
  assert.equal(await runPanelCode(page, viaFetch), 'defgh');

  await page.locator('#stream').uncheck();
  await page.locator('#stop').fill('fg');
  await page.locator('#generate').click();
  await waitStatus(page, /Done: finish_reason stop/);
  assert.equal(await text(page, '#output'), 'de');
  assert.doesNotMatch(await text(page, '#code'), /stream_options/);
  assert.doesNotMatch(await text(page, '#code'), /top_p/, 'top_p at its default is not sent, as in the README');
  assert.equal(await text(page, '#decode-tps'), '–', 'a non-streamed body cannot tell prefill from decode');
});

test('chat: Enter sends and the answer streams; a second turn carries the history; Stop; the code panel covers chat, responses, messages and embeddings', async () => {
  await reset();
  await page.locator('#tab-completions').press('ArrowRight'); // the tabs take arrow keys
  assert.equal(await page.locator('#tab-chat').getAttribute('aria-selected'), 'true');
  assert.equal(await page.locator('#tab-chat').evaluate((tab) => tab.matches(':focus')), true);
  const chatStatus = (pattern: RegExp) =>
    page.locator('#chat-status').filter({ hasText: pattern }).waitFor({ timeout: 15_000 });
  const bubbles = () => page.locator('chat-transcript li .content').allTextContents();
  await page.locator('#max_tokens').fill('5');
  await page.locator('#chat-input').fill('abc');
  await page.locator('#chat-input').press('Shift+Enter');
  assert.equal(await page.locator('#chat-input').inputValue(), 'abc\n', 'Shift+Enter adds a line');
  assert.deepEqual(await bubbles(), [], 'and does not send');
  await page.locator('#chat-input').fill('abc');
  await page.locator('#chat-input').press('Enter');
  await chatStatus(/Done: finish_reason length/);
  // inpage-test's chat template concatenates the contents: [user 'abc'] is the prompt 'abc'.
  assert.deepEqual(await bubbles(), ['abc', 'defgh']);
  assert.equal(await page.locator('#chat-input').inputValue(), '', 'the box empties once sent');
  assert.equal(await text(page, '#tokens'), '5');
  assert.equal(await text(page, '#prompt-tokens'), '3');

  // The panel follows the tab: the chat request just sent, and its code gives the same answer.
  const chat = await text(page, '#code');
  assert.match(chat, /await openai\.chat\.completions\.create\(/);
  assert.match(chat, /"messages": \[\s*\{\s*"role": "user",\s*"content": "abc"\s*\}\s*\]/);
  assert.match(await text(page, '#code-note'), /README's\s+snippet\s+plus\s+stream_options.*maxRetries: 0/s);
  assert.equal(await runPanelCode(page, chat), 'defgh');
  await page.locator('#code-endpoint').selectOption('responses');
  const responses = await text(page, '#code');
  assert.match(responses, /await openai\.responses\.create\(\{\s*"model": "inpage-test",\s*"input": "abc",/);
  assert.equal(await runPanelCode(page, responses), 'defgh');
  await page.locator('#tab-fetch').click();
  assert.match(await text(page, '#code'), /fetch\('\/v1\/responses'/);
  assert.equal(await runPanelCode(page, await text(page, '#code')), 'defgh');
  await page.locator('#code-endpoint').selectOption('embeddings');
  assert.match(await text(page, '#code'), /fetch\('\/v1\/embeddings'/);
  await page.locator('#tab-sdk').click();
  const embeddings = await text(page, '#code');
  assert.match(embeddings, /await openai\.embeddings\.create\(\{\s*"model": "inpage-test",\s*"input": "abc"\s*\}\)/);
  assert.equal(await runPanelCode(page, embeddings), '320 3', '320 floats, 3 prompt tokens');
  // Anthropic's Messages call, with the Anthropic SDK (bundled into the page here) and with fetch.
  await page.locator('#code-endpoint').selectOption('messages');
  assert.equal(await text(page, '#tab-sdk'), 'Anthropic SDK');
  const messages = await text(page, '#code');
  assert.match(messages, /await anthropic\.messages\.create\(\{\s*"model": "inpage-test",\s*"messages": \[/);
  await loadSdk(page, 'anthropic');
  assert.equal(await runPanelCode(page, messages), 'defgh');
  await page.locator('#tab-fetch').click();
  assert.match(await text(page, '#code'), /fetch\('\/v1\/messages'/);
  assert.equal(await runPanelCode(page, await text(page, '#code')), 'defgh');
  await page.locator('#tab-sdk').click();
  await page.locator('#code-endpoint').selectOption('chat');

  // The second turn sends the history: the prompt is 'abc' + 'defgh' + 'x', so greedy 'yz' then z -> a.
  await page.locator('#chat-input').fill('x');
  await page.locator('#chat-send').click();
  await chatStatus(/Done: finish_reason length/);
  assert.deepEqual(await bubbles(), ['abc', 'defgh', 'x', 'yzabc']);
  assert.equal(await text(page, '#prompt-tokens'), '9');
  assert.match(await text(page, '#code'), /"content": "defgh"\s*\},\s*\{\s*"role": "user",\s*"content": "x"/);

  // Stop aborts a long answer; what came stays.
  await page.locator('#chat-clear').click();
  await page.locator('#max_tokens').fill('4000');
  await page.locator('#chat-input').fill('abc');
  await page.locator('#chat-input').press('Enter');
  const answer = page.locator('chat-transcript li[data-role="assistant"] .content');
  while (((await answer.textContent()) ?? '').length <= 20) await page.waitForTimeout(20);
  await page.locator('#chat-stop').click();
  await chatStatus(/Stopped/);
  const length = (await answer.textContent())?.length ?? 0;
  assert.ok(length > 20 && length < 4000, `stopped early (${length} chars)`);

  // reasoning_content shows collapsed above the answer (set directly: the test models never think).
  await page.locator('chat-transcript').evaluate((transcript) => {
    if (transcript instanceof HTMLElement)
      Object.assign(transcript, {
        turns: [
          { role: 'user', content: 'why?' },
          { role: 'assistant', content: 'because', reasoning: 'thinking <b>hard</b>' },
        ],
      });
  });
  const details = page.locator('chat-transcript details');
  assert.equal(await details.getAttribute('open'), null, 'collapsed');
  assert.equal(await text(page, 'chat-transcript details pre'), 'thinking <b>hard</b>', 'as text, not HTML');
  assert.equal(await page.locator('chat-transcript details b').count(), 0);
  await details.locator('summary').click();
  assert.equal(await details.getAttribute('open'), '');
  await shot(page, 'chat');
  assert.deepEqual(await axeViolations(page), []);
});

test('Stop aborts a long stream, and the engine is free for the next request at once', async () => {
  await reset();
  await generate(page, 'abc', 4000);
  while (((await page.locator('#output').textContent()) ?? '').length <= 20) await page.waitForTimeout(20);
  await page.locator('#stop-button').click();
  await waitStatus(page, /Stopped/);
  const length = (await page.locator('#output').textContent())?.length ?? 0;
  await page.waitForTimeout(300);
  assert.equal((await page.locator('#output').textContent())?.length, length, 'no text after Stop');
  assert.ok(length < 4000, `stopped early (${length} chars)`);
  await shot(page, 'stopped');
  // The engine itself saw the cancel: the request ended aborted, well short of its 4,000 tokens.
  const record = await page.evaluate(async () => {
    for (let i = 0; i < 100; i++) {
      const last = (await window.inpage.recentRequests()).at(-1);
      if (last?.outcome === 'aborted') return last;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return null;
  });
  assert.equal(record?.reason, 'client aborted');
  assert.ok(
    (record?.completionTokens ?? Infinity) < 4000,
    `the engine stopped after ${record?.completionTokens} tokens`,
  );
  await generate(page, 'abc', 5);
  await waitStatus(page, /Done/);
  assert.equal(await text(page, '#output'), 'defgh');
});

test('engine busy: a request queued behind another shows the busy notice until it runs', async () => {
  await reset();
  await page.evaluate(() => {
    const blocker = new AbortController();
    Reflect.set(window, 'blocker', blocker);
    const body = JSON.stringify({
      model: 'inpage-test',
      prompt: 'hi ',
      max_tokens: 4000,
      temperature: 0,
      stream: true,
    });
    void fetch('/v1/completions', { method: 'POST', body, signal: blocker.signal })
      .then((response) => response.body?.pipeTo(new WritableStream()))
      .catch(() => undefined);
  });
  await generate(page, 'abc', 5);
  await page.locator('notice-banner [data-kind="busy"]').waitFor({ timeout: 5000 });
  await shot(page, 'busy');
  await page.evaluate(() => Reflect.get(window, 'blocker').abort());
  await waitStatus(page, /Done/);
  assert.equal(await text(page, '#output'), 'defgh');
  assert.equal(await page.locator('notice-banner [data-kind="busy"]').count(), 0, 'the notice goes once it runs');
});

test('a model that fails to load says so and offers inpage-test, which then loads', async () => {
  const page = await open('/?model=/missing-model.gguf', false);
  const banner = page.locator('notice-banner [data-kind="download-failed"]');
  await banner.waitFor();
  assert.match((await banner.textContent()) ?? '', /missing-model/);
  assert.match(await text(page, '#phase'), /^failed/);
  await shot(page, 'load-failed');
  await page.locator('notice-banner button').click();
  await page.waitForURL(/model=inpage-test/);
  await page.waitForFunction(() => 'inpage' in window);
  await page.evaluate(() => window.inpage.ready);
  assert.equal(await page.evaluate(() => window.inpage.model), 'inpage-test');
  await page.context().close();
});

// Without WebGPU only: with an adapter (INPAGE_E2E_WEBGPU's SwiftShader) the default is a WebLLM model, whose download fails offline.
test(
  'without ?model the page says why it runs the built-in model, and that there is no WebGPU',
  { skip: WEBGPU_EVERYWHERE },
  async () => {
    const page = await open('/', false);
    await page.waitForFunction(() => 'inpage' in window);
    await page.evaluate(() => window.inpage.ready);
    const info = page.locator('notice-banner [data-kind="info"]');
    assert.match((await info.textContent()) ?? '', /Running inpage-test.*built-in test model/s);
    assert.match(await text(page, 'notice-banner [data-kind="no-webgpu"]'), /No WebGPU/);
    await shot(page, 'default-model');
    await page.context().close();
  },
);

test('with WebGPU where nothing downloads (navigator.onLine, no internet), the default WebLLM model fails and the page falls back to the built-in model by itself, saying why', async () => {
  const webgpu = await startHarness({ args: ['--enable-unsafe-webgpu'] });
  try {
    const { page } = await webgpu.openPage('/', { waitReady: false });
    await page.waitForURL(/[?&]model=inpage-test(&|$)/, { timeout: 90_000 });
    await page.waitForFunction(() => 'inpage' in window);
    await page.evaluate(() => window.inpage.ready);
    assert.equal(await page.evaluate(() => window.inpage.model), 'inpage-test');
    const info = (await page.locator('notice-banner [data-kind="info"]').textContent()) ?? '';
    assert.match(info, /Running inpage-test/);
    assert.match(
      info,
      /The default model 'Qwen2\.5-0\.5B-Instruct-q4f16_1-MLC' could not be started \(.+\), so the playground runs the built-in test model/s,
    );
    // Once: a reload of the fallen-back page shows no such notice.
    await page.reload();
    await page.evaluate(() => window.inpage.ready);
    assert.equal(await page.locator('notice-banner [data-kind="info"]').count(), 0);
  } finally {
    await webgpu.close();
  }
});

test('keyboard: Ctrl+Enter in the prompt generates; axe finds no WCAG A/AA violations', async () => {
  await reset();
  await page.locator('#prompt').fill('ABC');
  await page.locator('#prompt').press('Control+Enter');
  await waitStatus(page, /Done/);
  assert.equal(await text(page, '#output'), 'DEFGHIJKLMNOPQRSTUVWXYZABCDEFGHI');
  await shot(page, 'done'); // docs/playground.png is this one
  assert.deepEqual(await axeViolations(page), []);
});

test('with ?api_key= the playground sends the key, and its code panel shows it', async () => {
  const keyed = await open('/?model=inpage-test&api_key=sk-play');
  await generate(keyed, 'abc', 5);
  await waitStatus(keyed, /Done/);
  assert.equal(await text(keyed, '#output'), 'defgh');
  assert.match(await text(keyed, '#code'), /apiKey: "sk-play"/);
  const withoutKey = await keyed.evaluate(
    async () =>
      (await fetch('/v1/completions', { method: 'POST', body: JSON.stringify({ model: 'inpage-test', prompt: 'a' }) }))
        .status,
  );
  assert.equal(withoutKey, 401);
  await keyed.context().close();
});
