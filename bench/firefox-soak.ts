/**
 * `npm run soak:firefox` (not part of `npm test`), in Firefox ESR at its stock settings:
 * - `long`: a generation of SOAK_SECONDS (default 300), streamed and then not, through the
 *   Service Worker, which Firefox stops 30 s after its last event unless kept awake
 *   (worker/sw/keep-awake.ts). Reports whether each completed, ended with an error, or was cut.
 * - `loads`: LOADS (default 50) times, a page loads `inpage-test-qwen3` and then goes to
 *   `&threads=2` (the order of issue 51's rare hang); reports how many became ready, failed
 *   (with what), or hung past 60 s.
 * `FIREFOX_SOAK=long|loads` runs one of them; both by default. `SOAK_STREAM=true|false`: only the
 * streamed or the JSON long generation. A long generation that ends in an error prints the
 * engine's record of its requests (which side gave up, and why).
 */
import { startFirefoxHarness } from '../test/e2e/firefox-harness';
import { longGeneration } from './long-generation';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const LOADS = Number(process.env.LOADS ?? 50);
const which = process.env.FIREFOX_SOAK ?? 'long loads';
const TOKENS_PER_PROMPT = 3000;

// A generation of SOAK_SECONDS runs in one evaluate: past puppeteer's 180 s.
const harness = await startFirefoxHarness({}, undefined, (3 * SECONDS + 120) * 1000);
try {
  if (which.includes('long')) {
    for (const stream of [true, false].filter((s) => (process.env.SOAK_STREAM ?? 'both') !== String(!s))) {
      const { page, context } = await harness.openPage();
      const result = await page.evaluate(longGeneration, { seconds: SECONDS, perPrompt: TOKENS_PER_PROMPT, stream });
      console.log(
        `long ${stream ? 'stream' : 'JSON'}: ${result.outcome} after ${result.seconds.toFixed(0)} s (${result.prompts} prompts x ${TOKENS_PER_PROMPT} tokens at ~${result.tokensPerSecond.toFixed(0)} tok/s)`,
      );
      // Where it ended with an error, the engine's own record of the request says which side gave up.
      if (!result.outcome.startsWith('completed'))
        console.log(`  engine's record: ${JSON.stringify(await page.evaluate(() => window.inpage.recentRequests()))}`);
      await context.close();
    }
  }
  if (which.includes('loads')) {
    const outcomes = new Map<string, number>();
    const times: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const { page, context } = await harness.openPage('/?model=/models/inpage-test-qwen3.gguf');
      const start = Date.now();
      const outcome = await page
        .goto(`${harness.origin}/?model=inpage-test&threads=2`)
        .then(() =>
          page.evaluate(() =>
            Promise.race([
              window.inpage.ready.then(
                () => 'ready',
                (error: unknown) => `failed: ${error instanceof Error ? error.message : String(error)}`,
              ),
              new Promise<string>((resolve) => setTimeout(() => resolve('hung past 60 s'), 60_000)),
            ]),
          ),
        )
        .catch((error: unknown) => `threw: ${String(error)}`);
      times.push(Date.now() - start);
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      if (outcome !== 'ready') console.log(`load ${i + 1}: ${outcome}`);
      await context.close();
    }
    times.sort((a, b) => a - b);
    console.log(
      `loads of &threads=2 after inpage-test-qwen3: ${JSON.stringify(Object.fromEntries(outcomes))}; time to ready median ${times[times.length >> 1]} ms, max ${times.at(-1)} ms`,
    );
  }
} finally {
  const errors = harness.takePageErrors();
  if (errors.length > 0) console.log(`page errors:\n${errors.join('\n')}`);
  await harness.close();
}
