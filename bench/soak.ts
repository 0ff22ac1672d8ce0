/**
 * `npm run soak:stream` (not part of `npm test`): one stream through the Service Worker that lasts
 * longer than Chromium's ~5 minutes for one fetch (SOAK_SECONDS, default 400). The request is
 * a batch of prompts sized from a warm-up's tokens/s, so the engine generates for the whole
 * time. Reports whether the stream completed with `[DONE]`, ended with an error frame, or broke
 * (a network error), and how long it ran.
 */
import { startHarness } from '../test/e2e/harness';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 400);
const TOKENS_PER_PROMPT = 3000;

const harness = await startHarness();
try {
  const { page } = await harness.openPage();
  const result = await page.evaluate(
    async ({ seconds, perPrompt }) => {
      const post = (body: object) =>
        fetch('/v1/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'inpage-test', temperature: 0, ...body }),
        });
      const warmStart = performance.now();
      await (await post({ prompt: 'hi ', max_tokens: 500, ignore_eos: true })).json();
      const tokensPerSecond = 500 / ((performance.now() - warmStart) / 1000);
      const prompts = Math.max(1, Math.ceil((tokensPerSecond * seconds * 1.1) / perPrompt));
      const start = performance.now();
      let text = '';
      let outcome = 'ended without [DONE] or an error frame';
      try {
        const response = await post({
          prompt: Array.from({ length: prompts }, () => 'hi '),
          max_tokens: perPrompt,
          ignore_eos: true,
          stream: true,
        });
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text = (text + value).slice(-2000);
        }
        if (text.includes('data: [DONE]')) outcome = 'completed with [DONE]';
        else if (text.includes('data: {"error"'))
          outcome = `error frame: ${text.slice(text.lastIndexOf('data: {"error"')).trim()}`;
      } catch (error) {
        outcome = `broke: ${(error as Error).name}: ${(error as Error).message}`;
      }
      return { tokensPerSecond, prompts, seconds: (performance.now() - start) / 1000, outcome };
    },
    { seconds: SECONDS, perPrompt: TOKENS_PER_PROMPT },
  );
  console.log(JSON.stringify(result));
  console.log(
    `soak: ${result.outcome} after ${result.seconds.toFixed(0)} s (${result.prompts} prompts x ${TOKENS_PER_PROMPT} tokens at ~${result.tokensPerSecond.toFixed(0)} tok/s)`,
  );
} finally {
  await harness.close();
}
