/**
 * The transport alone, on the tiny `inpage-test` model: a long greedy stream through the
 * endpoint and direct from the engine, alternating in one page; decode tok/s and TTFT of each.
 */
import type { Harness } from '../test/e2e/harness';
import { runInPage, type Route, type RunSample } from './page-runs';

/** Endpoint and direct samples of the transport bench. */
export type TransportResult = Record<Route, RunSample[]>;

export async function benchTransport(harness: Harness, rounds: number, tokens: number): Promise<TransportResult> {
  const { context, page } = await harness.openPage();
  const body = { model: 'inpage-test', prompt: 'abc', max_tokens: tokens, temperature: 0 };
  const result: TransportResult = { endpoint: [], direct: [] };
  try {
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
