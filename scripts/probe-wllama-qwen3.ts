/**
 * `npx tsx scripts/probe-wllama-qwen3.ts`: loads `inpage-test-qwen3` straight into wllama in
 * headless Chromium (no Service Worker, no project code) and records what its
 * `createCompletion` does with a token-id prompt and with tokens that are not whole UTF-8
 * characters (the chain's `𝔸` is split across 3 tokens). Investigation aid, not a test.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { chromium } from 'playwright';
import { buildInpageTestQwen3Model } from '../src/test-model/inpage-test-qwen3-model';
import { CHROMIUM_ARGS } from '../test/e2e/harness';
import { loadQwen3Tokenizer } from './load-qwen3-tokenizer';

const WLLAMA = resolve('node_modules/@wllama/wllama/esm');
const PAGE = `<!doctype html><script type="module">
import { Wllama } from '/wllama/index.js';
const logs = [];
const logger = { debug() {}, log() {}, warn: (...a) => logs.push('warn ' + a.join(' ')), error: (...a) => logs.push('error ' + a.join(' ')) };
const wllama = new Wllama({ default: '/wllama/wasm/wllama.wasm' }, { logger });
const attempt = async (name, options) => {
  const chunks = [];
  try {
    const result = await wllama.createCompletion({ temperature: 0, ...options, ...(options.stream ? { onData: (c) => chunks.push(c) } : {}) });
    const choices = options.stream ? chunks.map((c) => c.choices?.[0]) : [result.choices?.[0]];
    return { name, ok: true, texts: choices.map((c) => c?.text), finish: choices.map((c) => c?.finish_reason).filter(Boolean), logprobs: choices.map((c) => c?.logprobs).filter(Boolean), usage: (options.stream ? chunks.at(-1) : result)?.usage, logs: logs.splice(0) };
  } catch (error) {
    return { name, ok: false, error: String(error?.message ?? error), texts: chunks.map((c) => c.choices?.[0]?.text), logs: logs.splice(0).map((l) => l.split('\\n')[0]) };
  }
};
window.run = async () => {
  const blob = await (await fetch('/model.gguf')).blob();
  await wllama.loadModel([blob], { n_ctx: 512, n_threads: 1, n_gpu_layers: 0, n_parallel: 1 });
  const out = [];
  out.push(await attempt('string prompt, control', { prompt: 'Hi', max_tokens: 3 }));
  out.push(await attempt('token-id prompt [9707]', { prompt: [9707], max_tokens: 3 }));
  out.push(await attempt('after the 1st error, string prompt again', { prompt: 'Hi', max_tokens: 2 }));
  out.push(await attempt('stream across 𝔸, no logprobs', { prompt: 'Say: Hello, world! 你好 😀', max_tokens: 8, stream: true }));
  out.push(await attempt('non-stream across 𝔸, no logprobs', { prompt: 'Say: Hello, world! 你好 😀', max_tokens: 8 }));
  out.push(await attempt('non-stream, max_tokens ends mid-𝔸', { prompt: 'Say: Hello, world! 你好 😀', max_tokens: 2 }));
  out.push(await attempt('stream, max_tokens ends mid-𝔸', { prompt: 'Say: Hello, world! 你好 😀', max_tokens: 2, stream: true }));
  out.push(await attempt('logprobs 3, valid UTF-8 only', { prompt: 'Hello', max_tokens: 2, logprobs: 3 }));
  out.push(await attempt('logprobs 1, stream across 𝔸', { prompt: 'Say: Hello, world! 你好 😀', max_tokens: 8, stream: true, logprobs: 1 }));
  out.push(await attempt('logprobs 1, non-stream across 𝔸', { prompt: 'Say: Hello, world! 你好 😀', max_tokens: 8, logprobs: 1 }));
  out.push(await attempt('special-token text prompt, max_tokens 1', { prompt: '<|im_start|>user\\nabc<|im_end|>\\n<|im_start|>assistant\\n', max_tokens: 1 }));
  return out;
};
window.ready = true;
</script>`;

const model = buildInpageTestQwen3Model(await loadQwen3Tokenizer());
const server = createServer((req, res) => {
  const url = req.url ?? '/';
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
  const send = (body: Uint8Array | string, type: string): void => {
    res.setHeader('Content-Type', type);
    res.end(body);
  };
  if (url === '/') return send(PAGE, 'text/html; charset=utf-8');
  if (url === '/model.gguf') return send(model, 'application/octet-stream');
  if (url.startsWith('/wllama/')) {
    readFile(resolve(WLLAMA, url.slice('/wllama/'.length))).then(
      (body) => send(body, url.endsWith('.wasm') ? 'application/wasm' : 'text/javascript; charset=utf-8'),
      () => ((res.statusCode = 404), res.end()),
    );
    return;
  }
  res.statusCode = 404;
  res.end();
});
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const address = server.address();
if (address === null || typeof address === 'string') throw new Error('the probe server has no port');
const { port } = address;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: CHROMIUM_ARGS,
});
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.log('pageerror', error.message));
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => Reflect.get(window, 'ready') === true);
  const results: unknown = await page.evaluate(() => Reflect.get(window, 'run')());
  for (const r of Array.isArray(results) ? results : []) console.log(JSON.stringify(r));
} finally {
  await browser.close();
  server.close();
}
