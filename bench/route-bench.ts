/**
 * `npm run bench:routes`: what a server-fronted request costs over calling the upstream directly
 * from the page. Debian's llama-server on `inpage-test` (test/e2e/llama-server.ts); from one page,
 * interleaved pairs of the same one-token completion, through the Service Worker's route
 * (`model: 'remote'`, targets `['srv']`) and by `fetch` straight to the server (CORS). Prints the
 * medians of the time to the whole JSON answer and to the first SSE byte. BENCH_ROUTE_PAIRS (40).
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
        const a = await time('/v1/completions', 'remote', false);
        const b = await time(`${direct}/completions`, 'inpage-test', false);
        const c = await time('/v1/completions', 'remote', true);
        const d = await time(`${direct}/completions`, 'inpage-test', true);
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
  const row = (name: string, routed: number[], direct: number[]) =>
    `| ${name} | ${median(direct).toFixed(2)} | ${median(routed).toFixed(2)} | ${(median(routed) - median(direct)).toFixed(2)} |`;
  console.log(`\nServer-fronted vs direct, llama-server on inpage-test, ${PAIRS} interleaved pairs (medians, ms)\n`);
  console.log('| request | direct | through the route | overhead |\n| --- | --- | --- | --- |');
  console.log(row('JSON, 1 token, whole answer', samples.routedJson, samples.directJson));
  console.log(row('SSE, 1 token, first byte', samples.routedSse, samples.directSse));
} finally {
  await Promise.all([harness.close(), server.stop()]);
}
