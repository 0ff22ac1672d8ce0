/**
 * The transport alone, on the tiny `inpage-test` model: a long greedy stream through the
 * endpoint and direct from the engine, alternating in one page; decode tok/s and TTFT of each.
 * Then many pairs of short streams (2 tokens), endpoint and direct back to back in alternating
 * order, for the time-to-first-token overhead of the endpoint (its median of pair differences).
 */
import type { Harness } from '../test/e2e/harness';
import { runInPage, type Route, type RunSample } from './page-runs';

/** Endpoint and direct samples of the transport bench: long streams, and short ones for TTFT. */
export type TransportResult = Record<Route, RunSample[]> & { ttft: Record<Route, RunSample[]> };

export async function benchTransport(
  harness: Harness,
  rounds: number,
  tokens: number,
  ttftPairs: number,
): Promise<TransportResult> {
  const { context, page } = await harness.openPage();
  const body = { model: 'inpage-test', prompt: 'abc', max_tokens: tokens, temperature: 0 };
  const result: TransportResult = { endpoint: [], direct: [], ttft: { endpoint: [], direct: [] } };
  try {
    const short = { ...body, max_tokens: 2 };
    for (let pair = 0; pair < ttftPairs + 1; pair++) {
      const routes: Route[] = pair % 2 === 0 ? ['endpoint', 'direct'] : ['direct', 'endpoint'];
      for (const route of routes) {
        const sample = await runInPage(page, route, short);
        if (pair > 0) result.ttft[route].push(sample); // pair 0 warms up
      }
    }
    for (let round = 0; round < rounds + 1; round++) {
      const routes: Route[] = round % 2 === 0 ? ['endpoint', 'direct'] : ['direct', 'endpoint'];
      for (const route of routes) {
        const sample = await runInPage(page, route, body);
        if (round > 0) result[route].push(sample); // round 0 warms up
      }
    }
  } finally {
    await context.close();
  }
  return result;
}
