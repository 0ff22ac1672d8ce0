/**
 * `npm run soak:stream` (not part of `npm test`): one stream through the Service Worker that lasts
 * longer than Chromium's ~5 minutes for one fetch (SOAK_SECONDS, default 400). The request is
 * a batch of prompts sized from a warm-up's tokens/s, so the engine generates for the whole
 * time. Reports whether the stream completed with `[DONE]`, ended with an error frame, or broke
 * (a network error), and how long it ran.
 */
import { startHarness } from '../test/e2e/harness';
import { longGeneration } from './long-generation';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 400);
const TOKENS_PER_PROMPT = 3000;

const harness = await startHarness();
try {
  const { page } = await harness.openPage();
  const result = await page.evaluate(longGeneration, { seconds: SECONDS, perPrompt: TOKENS_PER_PROMPT, stream: true });
  console.log(JSON.stringify(result));
  console.log(
    `soak: ${result.outcome} after ${result.seconds.toFixed(0)} s (${result.prompts} prompts x ${TOKENS_PER_PROMPT} tokens at ~${result.tokensPerSecond.toFixed(0)} tok/s)`,
  );
} finally {
  await harness.close();
}
