/**
 * The surrogate fuzz, on both test models (`inpage-test`, `inpage-test-qwen3`): lone UTF-16
 * surrogates in every string field and key of the four POST routes (`surrogate-cases.ts`), JSON
 * and SSE, sent from the page a few at a time through the real Service Worker. Each answer is a
 * 400 `invalid_unicode` naming the field (or the control's status, with a well-formed body that
 * ends cleanly), each within its bound; afterwards the engine still answers exactly. Prints the
 * counts by status.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright';
import { startHarness, type Harness } from './harness';
import { postFromPage } from './page-helpers';
import { readmeSnippet } from './readme-snippet';
import { surrogateCases, type SurrogateCase } from './surrogate-cases';

const MODELS = [
  { model: 'inpage-test', path: '/?model=inpage-test' },
  { model: 'inpage-test-qwen3', path: '/?model=/models/inpage-test-qwen3.gguf' },
];
/** Requests in flight at once from the page. */
const CONCURRENCY = 6;
/** The most one request may take (a generation here is 2 tokens). */
const BOUND_MS = 15_000;

interface FuzzResult {
  statuses: Record<string, number>;
  problems: string[];
  slowest: number;
}

/** Sends every case from the page, CONCURRENCY at a time, and checks each answer there. */
function runCases(page: Page, cases: SurrogateCase[]): Promise<FuzzResult> {
  return page.evaluate(
    async ({ cases, concurrency, bound }) => {
      const statuses: Record<string, number> = {};
      const problems: string[] = [];
      let slowest = 0;
      const check = (item: (typeof cases)[number], status: number, type: string, text: string): string | null => {
        if (status !== item.status) return `status ${status}, expected ${item.status}`;
        if (item.stream && status === 200) {
          if (!type.includes('text/event-stream')) return `content-type ${type}`;
          if (/^data: \{"error"|^event: error|response\.failed/m.test(text)) return 'an error event';
          if (!/^data: \[DONE\]$|^event: response\.(completed|incomplete)$/m.test(text)) return 'no clean end';
          return null;
        }
        if (!type.includes('application/json')) return `content-type ${type}`;
        const body: unknown = JSON.parse(text);
        const error = typeof body === 'object' && body !== null ? Reflect.get(body, 'error') : undefined;
        if (status === 200) return error === undefined || error === null ? null : 'an error body under 200';
        if (typeof error !== 'object' || error === null) return 'no error body';
        if (typeof Reflect.get(error, 'message') !== 'string') return 'no message';
        if (item.param === null) return null;
        const got = [Reflect.get(error, 'type'), Reflect.get(error, 'code'), Reflect.get(error, 'param')];
        const wanted = ['invalid_request_error', 'invalid_unicode', item.param];
        return JSON.stringify(got) === JSON.stringify(wanted) ? null : `error ${JSON.stringify(got)}`;
      };
      const one = async (item: (typeof cases)[number]) => {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), bound);
        const start = performance.now();
        try {
          const response = await fetch(item.route, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: item.body,
            signal: controller.signal,
          });
          const text = await response.text();
          slowest = Math.max(slowest, performance.now() - start);
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          const problem = check(item, response.status, response.headers.get('content-type') ?? '', text);
          if (problem) problems.push(`${item.label}: ${problem}: ${text.slice(0, 300)}`);
        } catch (error) {
          statuses.failed = (statuses.failed ?? 0) + 1;
          problems.push(`${item.label}: ${controller.signal.aborted ? `hung past ${bound} ms` : String(error)}`);
        } finally {
          clearTimeout(timer);
        }
      };
      let next = 0;
      const lane = async () => {
        while (next < cases.length) await one(cases[next++] as (typeof cases)[number]);
      };
      await Promise.all(Array.from({ length: concurrency }, lane));
      return { statuses, problems, slowest };
    },
    { cases, concurrency: CONCURRENCY, bound: BOUND_MS },
  );
}

let harness: Harness | undefined;
before(async () => {
  harness = await startHarness();
});
after(() => harness?.close());

describe('lone surrogates in every string field: 400 naming the field, on both test models', () => {
  for (const { model, path } of MODELS) {
    test(`${model}: every case, JSON and SSE`, async () => {
      const { page, context } = await harness!.openPage(path);
      // The error docs/reliability.md shows is the one this model's endpoint answers.
      const documented = await postFromPage(
        page,
        '/v1/chat/completions',
        JSON.stringify({ model, messages: [{ role: 'user', content: 'ab\uD83D' }], max_tokens: 2 }),
      );
      assert.equal(documented.status, 400);
      assert.deepEqual(documented.body, JSON.parse(readmeSnippet('lone-surrogate-error')));
      const cases = surrogateCases(model);
      const started = performance.now();
      const result = await runCases(page, cases);
      const seconds = (performance.now() - started) / 1000;
      const exact = await postFromPage(page, '/v1/completions', {
        model,
        prompt: 'abc',
        max_tokens: 4,
        temperature: 0,
      });
      await context.close();
      console.log(
        `# surrogates on ${model}: ${cases.length} requests in ${seconds.toFixed(1)} s, statuses ${JSON.stringify(result.statuses)}, slowest ${Math.round(result.slowest)} ms`,
      );
      assert.deepEqual(result.problems.slice(0, 10), []);
      assert.equal(
        Object.values(result.statuses).reduce((a, b) => a + b, 0),
        cases.length,
      );
      assert.ok(
        Object.keys(result.statuses).every((status) => Number(status) < 500),
        'no 5xx',
      );
      assert.equal(exact.status, 200, 'the engine still answers');
      const text = (exact.body as { choices: Array<{ text: string }> }).choices[0]?.text;
      assert.equal(text, model === 'inpage-test' ? 'defg' : 'Hello, world!', 'the engine still answers exactly');
    });
  }

  test('the two models together make at least 5,000 requests', () => {
    const total = MODELS.reduce((sum, { model }) => sum + surrogateCases(model).length, 0);
    assert.ok(total >= 5000, `${total} requests`);
  });
});
