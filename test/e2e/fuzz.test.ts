/**
 * A seeded fuzz over every route: 2,000 requests built from valid ones with random fields
 * replaced, removed or added (wrong types, out-of-range numbers, huge and odd strings, lone
 * surrogates, prototype keys, wrong methods and paths). Every answer must be OpenAI-shaped (an
 * error body `{error:{message,type,param,code}}` or a success), never a 5xx but 503, and come
 * within a bounded time; afterwards the engine still answers exactly.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { usePage } from './page-fixture';

const fixture = usePage();

const REQUESTS = 2000;
const SEED = 20261201;

test(`fuzz: ${REQUESTS} seeded requests over every route get OpenAI-shaped answers, no 5xx but 503, no hang`, async () => {
  const result = await fixture.page.evaluate(
    async ({ count, seed }) => {
      let state = seed >>> 0;
      const rand = () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
      const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
      const odd: unknown[] = [
        null,
        true,
        false,
        0,
        -1,
        1e-40,
        5e-324,
        1e308,
        -1e308,
        2 ** 53,
        0.5,
        3,
        129,
        'x',
        '',
        '\ud800abc',
        'abé',
        '日本語',
        'a😀',
        '%zz',
        'x'.repeat(5000),
        [],
        [1, 2],
        ['a'],
        [[1]],
        [-1],
        {},
        { __proto__: 1 },
        { a: 1 },
        { type: 'json_schema' },
        { type: 'text' },
        { constructor: 5 },
        [null],
        ['\n'],
      ];
      const fields = [
        'model',
        'prompt',
        'messages',
        'input',
        'max_tokens',
        'max_completion_tokens',
        'max_output_tokens',
        'temperature',
        'top_p',
        'top_k',
        'min_p',
        'n',
        'best_of',
        'stop',
        'stream',
        'stream_options',
        'logprobs',
        'top_logprobs',
        'echo',
        'logit_bias',
        'seed',
        'suffix',
        'repetition_penalty',
        'presence_penalty',
        'response_format',
        'grammar',
        'regex',
        'guided_choice',
        'json_schema',
        'tools',
        'tool_choice',
        'encoding_format',
        'dimensions',
        'user',
        'nonsense',
      ];
      const bases: Array<[string, Record<string, unknown>]> = [
        ['/v1/completions', { model: 'inpage-test', prompt: 'abc', max_tokens: 3, temperature: 0 }],
        [
          '/v1/chat/completions',
          { model: 'inpage-test', messages: [{ role: 'user', content: 'abc' }], max_tokens: 3, temperature: 0 },
        ],
        ['/v1/responses', { model: 'inpage-test', input: 'abc', max_output_tokens: 3, temperature: 0 }],
        ['/v1/embeddings', { model: 'inpage-test', input: 'ab' }],
      ];
      const statuses: Record<string, number> = {};
      const problems: string[] = [];
      let slowest = 0;
      for (let i = 0; i < count; i++) {
        const [path, base] = pick(bases);
        const body: Record<string, unknown> = { ...base };
        for (let edits = 1 + Math.floor(rand() * 3); edits > 0; edits--) {
          const field = pick(fields);
          if (rand() < 0.2) delete body[field];
          else body[field] = pick(odd);
        }
        // Keep generations short whatever the edits did.
        for (const limit of ['max_tokens', 'max_completion_tokens', 'max_output_tokens']) {
          const value = body[limit];
          if (typeof value === 'number' && (value > 8 || value < 0)) body[limit] = 8;
          if (value === null) body[limit] = 8;
        }
        // Chat and responses generate up to the context when no limit is given (OpenAI's default).
        if (
          path === '/v1/chat/completions' &&
          body.max_tokens === undefined &&
          body.max_completion_tokens === undefined
        )
          body.max_tokens = 8;
        if (path === '/v1/responses' && body.max_output_tokens === undefined) body.max_output_tokens = 8;
        if (typeof body.n === 'number' && body.n > 4) body.n = 2;
        if (typeof body.best_of === 'number' && body.best_of > 4) body.best_of = 2;
        const kind = rand();
        let url = path;
        let init: RequestInit = {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        };
        if (kind < 0.04) init = { method: 'GET' };
        else if (kind < 0.06) url = '/v1/models/' + pick(['inpage-test', '%', '%E0%A4%A', 'nope', 'x'.repeat(3000)]);
        else if (kind < 0.08) url = pick(['/v1/nope', '/v1/models/a/b', '/v1']);
        else if (kind < 0.1) init = { ...init, body: '{"model":' };
        else if (kind < 0.12) init = { method: 'DELETE' };
        const start = performance.now();
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), 20_000);
        try {
          const response = await fetch(url, { ...init, signal: controller.signal });
          const text = await response.text();
          const ms = performance.now() - start;
          slowest = Math.max(slowest, ms);
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          if (response.status >= 500 && response.status !== 503)
            problems.push(`${response.status} ${url} ${JSON.stringify(body).slice(0, 200)}: ${text.slice(0, 200)}`);
          if (response.status >= 400) {
            const parsed: unknown = JSON.parse(text);
            const error = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'error') : null;
            if (
              typeof error !== 'object' ||
              error === null ||
              typeof Reflect.get(error, 'message') !== 'string' ||
              !('type' in error) ||
              !('param' in error) ||
              !('code' in error)
            ) {
              problems.push(`not OpenAI-shaped: ${response.status} ${text.slice(0, 200)}`);
            }
          }
        } catch (error) {
          problems.push(`${String(error)} ${url} ${JSON.stringify(body).slice(0, 200)}`);
        } finally {
          clearTimeout(timer);
        }
      }
      const after = await fetch('/v1/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'inpage-test', prompt: 'abc', max_tokens: 5, temperature: 0 }),
      });
      const text = ((await after.json()) as { choices: Array<{ text: string }> }).choices[0]?.text;
      return { statuses, problems, slowest, text };
    },
    { count: REQUESTS, seed: SEED },
  );
  console.log(`# fuzz: statuses ${JSON.stringify(result.statuses)}, slowest ${Math.round(result.slowest)} ms`);
  assert.deepEqual(result.problems.slice(0, 10), []);
  assert.equal(
    Object.values(result.statuses).reduce((a, b) => a + b, 0),
    REQUESTS,
  );
  assert.ok((result.statuses['200'] ?? 0) > 50, 'some fuzzed requests are valid and run on the engine');
  assert.equal(result.text, 'defgh', 'the engine still answers exactly');
});
