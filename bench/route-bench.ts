/**
 * `npm run bench:routes`: what a server-fronted request costs over calling the upstream directly
 * from the page. Debian's llama-server on `inpage-test` (test/e2e/llama-server.ts); from one page,
 * interleaved pairs of the same one-token completion, through the Service Worker's route
 * (`model: 'remote'`, targets `['srv']`) and by `fetch` straight to the server (CORS), each pair's
 * order alternating. Prints the medians of the time to the whole JSON answer and to the first SSE
 * byte, and the median of the pairs' differences (steadier on a busy machine). BENCH_ROUTE_PAIRS (40).
 */
import { startHarness } from '../test/e2e/harness';
import { serverSkip, startLlamaServer } from '../test/e2e/llama-server';
import { median } from './stats';

const PAIRS = Number(process.env.BENCH_ROUTE_PAIRS ?? 40);
const skip = serverSkip();
if (skip) {
  console.log(`route bench skipped: ${skip}`);
  process.exit(0);
}
const [harness, server] = await Promise.all([startHarness(), startLlamaServer()]);
try {
  const table = {
    upstreams: { srv: { baseURL: server.baseURL, model: 'inpage-test' } },
    routes: { remote: { targets: ['srv'] } },
  };
  const routes = encodeURIComponent(`data:application/json,${JSON.stringify(table)}`);
  const { page } = await harness.openPage(`/?model=inpage-test&routes=${routes}`);
  const samples = await page.evaluate(
    async ({ pairs, direct }) => {
      const body = (model: string, stream: boolean) =>
        JSON.stringify({ model, prompt: 'abc', max_tokens: 1, temperature: 0, stream, cache_prompt: false });
      const time = async (url: string, model: string, stream: boolean) => {
        const start = performance.now();
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: body(model, stream),
        });
        const reader = response.body?.getReader();
        const first = await reader?.read();
        const firstByte = performance.now() - start;
        if (!first?.done) while (!(await reader?.read())?.done);
        return { firstByte, whole: performance.now() - start };
      };
      const out = {
        routedJson: [] as number[],
        directJson: [] as number[],
        routedSse: [] as number[],
        directSse: [] as number[],
      };
      for (let i = 0; i < pairs + 3; i++) {
        const warm = i < 3;
        // Each pair's order alternates, so neither side always follows the other kind of request.
        const pair = async (stream: boolean) => {
          const routed = () => time('/v1/completions', 'remote', stream);
          const straight = () => time(`${direct}/completions`, 'inpage-test', stream);
          if (i % 2 === 0) return [await routed(), await straight()] as const;
          const second = await straight();
          return [await routed(), second] as const;
        };
        const [a, b] = await pair(false);
        const [c, d] = await pair(true);
        if (warm) continue;
        out.routedJson.push(a.whole);
        out.directJson.push(b.whole);
        out.routedSse.push(c.firstByte);
        out.directSse.push(d.firstByte);
      }
      return out;
    },
    { pairs: PAIRS, direct: server.baseURL },
  );
  const row = (name: string, routed: number[], direct: number[]) => {
    const pairs = routed.map((time, i) => time - (direct[i] ?? 0));
    return `| ${name} | ${median(direct).toFixed(2)} | ${median(routed).toFixed(2)} | ${(median(routed) - median(direct)).toFixed(2)} | ${median(pairs).toFixed(2)} |`;
  };
  console.log(`\nServer-fronted vs direct, llama-server on inpage-test, ${PAIRS} interleaved pairs (medians, ms)\n`);
  console.log(
    "| request | direct | through the route | overhead | median of the pairs' differences |\n| --- | --- | --- | --- | --- |",
  );
  console.log(row('JSON, 1 token, whole answer', samples.routedJson, samples.directJson));
  console.log(row('SSE, 1 token, first byte', samples.routedSse, samples.directSse));
} finally {
  await Promise.all([harness.close(), server.stop()]);
}
