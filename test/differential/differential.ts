/**
 * `npm run differential`: the same greedy requests against native llama.cpp (node-llama-cpp,
 * prebuilt CPU binary from npm, installed on demand into .bench/native) and against the in-page
 * endpoint (real Chromium, real Service Worker), on the generated test model written to a file.
 * Reports every difference in text or top-5 logprobs, at each engine thread count of
 * DIFFERENTIAL_THREADS (1,2: the preview server isolates the page, so 2 runs the pthreads build).
 * Not part of CI.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { startHarness } from '../e2e/harness';
import { nativeGreedy, type NativeStep } from './differential-native';
import { ensureNative } from './ensure-native';

const MODEL = resolve('.bench/inpage-test.gguf');
const PROMPTS = ['abc', 'Hello, World', 'zZ9', 'x.', 'hi there', 'The year 2026 ends'];
const TOKENS = 12;
const TOLERANCE = 1e-4;
const THREADS = (process.env.DIFFERENTIAL_THREADS ?? '1,2').split(',').map(Number);

interface PageStep {
  token: string;
  top: Record<string, number>;
}

await mkdir('.bench', { recursive: true });
await writeFile(MODEL, buildInpageTestModel());
const native = await nativeGreedy(await ensureNative(), MODEL, PROMPTS, TOKENS);
const harness = await startHarness();
let differences = 0;
try {
  for (const threads of THREADS) {
    const { page, context } = await harness.openPage(`/?model=inpage-test&threads=${threads}/${threads}`);
    for (const prompt of PROMPTS) {
      const steps: PageStep[] = await page.evaluate(
        async ({ prompt, tokens }) => {
          const client = new window.OpenAI({
            baseURL: location.origin + '/v1',
            apiKey: 'unused',
            dangerouslyAllowBrowser: true,
          });
          const result = await client.completions.create({
            model: 'inpage-test',
            prompt,
            max_tokens: tokens,
            temperature: 0,
            logprobs: 5,
          });
          const logprobs = result.choices[0]?.logprobs;
          return (logprobs?.tokens ?? []).map((token, i) => ({ token, top: logprobs?.top_logprobs?.[i] ?? {} }));
        },
        { prompt, tokens: TOKENS },
      );
      differences += compare(`${threads}t ${prompt}`, native.get(prompt) ?? [], steps);
    }
    await context.close();
  }
} finally {
  await harness.close();
}
console.log(
  differences === 0
    ? `no differences over ${PROMPTS.length} prompts x ${TOKENS} tokens at ${THREADS.join(' and ')} threads (top-5 logprobs within ${TOLERANCE})`
    : `${differences} differences`,
);
process.exitCode = differences === 0 ? 0 : 1;

function compare(prompt: string, expected: NativeStep[], actual: PageStep[]): number {
  let found = 0;
  const report = (what: string) => {
    found += 1;
    console.log(`[${JSON.stringify(prompt)}] ${what}`);
  };
  const nativeText = expected.map((step) => step.token).join('');
  const pageText = actual.map((step) => step.token).join('');
  if (nativeText !== pageText)
    report(`text: native ${JSON.stringify(nativeText)} vs in-page ${JSON.stringify(pageText)}`);
  for (const [i, step] of expected.entries()) {
    const top = actual[i]?.top ?? {};
    for (const [token, logprob] of step.top) {
      const other = top[token];
      if (other === undefined || Math.abs(other - logprob) > TOLERANCE)
        report(
          `step ${i} ${JSON.stringify(token)}: native ${logprob.toFixed(5)} vs in-page ${other?.toFixed(5) ?? 'missing'}`,
        );
    }
  }
  return found;
}
