/**
 * `npm run bench`: a 1,000-token greedy stream on `inpage-test`, through the endpoint
 * (fetch -> Service Worker -> engine worker, SSE) and direct from the engine (no HTTP, no SW),
 * alternating in one page so both see the same machine load. Reports medians and the ratio.
 */
import { startHarness } from '../test/e2e/harness';

const TOKENS = Number(process.env.BENCH_TOKENS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

interface Sample {
  ttftMs: number;
  totalMs: number;
  tokens: number;
}

const harness = await startHarness();
try {
  const { page } = await harness.openPage();
  const body = { model: 'inpage-test', prompt: 'abc', max_tokens: TOKENS, temperature: 0 };
  const endpoint: Sample[] = [];
  const direct: Sample[] = [];
  for (let round = 0; round < ROUNDS + 1; round++) {
    const viaEndpoint = await page.evaluate(async (body) => {
      const start = performance.now();
      const response = await fetch('/v1/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, stream: true, stream_options: { include_usage: true } }),
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let ttftMs = 0;
      let text = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!ttftMs) ttftMs = performance.now() - start;
        text += value;
      }
      const totalMs = performance.now() - start;
      const usage = text.match(/"completion_tokens":(\d+)/);
      return { ttftMs, totalMs, tokens: Number(usage?.[1] ?? 0) };
    }, body);
    const viaDirect = await page.evaluate(async (body) => {
      const start = performance.now();
      let ttftMs = 0;
      let tokens = 0;
      for await (const event of window.inpage.stream(body)) {
        if (!ttftMs) ttftMs = performance.now() - start;
        if (event.type === 'generation.done') tokens = event.counts.completion;
      }
      return { ttftMs, totalMs: performance.now() - start, tokens };
    }, body);
    if (round === 0) continue; // warm-up
    endpoint.push(viaEndpoint);
    direct.push(viaDirect);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  const rate = (samples: Sample[]) => median(samples.map((s) => (s.tokens - 1) / ((s.totalMs - s.ttftMs) / 1000)));
  const ttft = (samples: Sample[]) => median(samples.map((s) => s.ttftMs));
  const rows = {
    endpoint: { 'tokens/s': rate(endpoint).toFixed(0), 'ttft ms': ttft(endpoint).toFixed(1), tokens: endpoint[0]?.tokens },
    direct: { 'tokens/s': rate(direct).toFixed(0), 'ttft ms': ttft(direct).toFixed(1), tokens: direct[0]?.tokens },
  };
  console.table(rows);
  console.log(`endpoint / direct throughput: ${(rate(endpoint) / rate(direct)).toFixed(3)} (median of ${ROUNDS} alternating rounds, ${TOKENS} tokens)`);
} finally {
  await harness.close();
}
