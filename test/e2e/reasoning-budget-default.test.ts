/**
 * The engine's default reasoning budget (`startInpage({ reasoningBudget })`, the playground's
 * `&reasoning_budget=` and `&reasoning_budget_message=`) against llama-server 0.7.0's
 * `--reasoning-budget` and `--reasoning-budget-message` on `inpage-test-qwen3-think`: a request
 * that sets no budget (or -1) gets the default and its message; one that sets a budget keeps its
 * own, with the default's message unless it sends one; streamed and not, token for token.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { serverSkip } from './llama-server';
import { useThinkServer } from './think-model';
import { askBoth, dataFrames, type Json } from './llama-server-compare';
import { usePage } from './page-fixture';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const FOLDER = 'test-models-think-default';
const MESSAGE = ' Enough.';
const fixture = usePage(
  `/?model=inpage-test&reasoning_budget=3&reasoning_budget_message=${encodeURIComponent(MESSAGE)}`,
);

/** A chat completion's reasoning and content (JSON or SSE). */
function split(body: unknown, text: string): [string, string] {
  if (typeof body === 'object' && body !== null && 'choices' in body) {
    const message = ((body as { choices: Json[] }).choices[0] as Json).message as Json;
    return [String(message.reasoning_content ?? ''), String(message.content ?? '')];
  }
  let reasoning = '';
  let content = '';
  for (const frame of dataFrames(text))
    for (const choice of (frame.choices as Json[] | undefined) ?? []) {
      const delta = (choice.delta ?? {}) as Json;
      reasoning += String(delta.reasoning_content ?? '');
      content += String(delta.content ?? '');
    }
  return [reasoning, content];
}

describe(
  "the engine's default reasoning budget against llama-server --reasoning-budget",
  { skip: skip ?? false },
  () => {
    const think = useThinkServer(fixture, FOLDER, {
      args: ['--reasoning-budget', '3', '--reasoning-budget-message', MESSAGE],
    });

    const cases: Array<[string, Json, string]> = [
      ['no budget in the request: the default, with its message', {}, 'Hello, Enough.'],
      ['-1: the default', { reasoning_budget_tokens: -1 }, 'Hello, Enough.'],
      ["a budget of the request's own, the default's message", { reasoning_budget_tokens: 2 }, 'Hello Enough.'],
      ['its own message', { reasoning_budget_tokens: 2, reasoning_budget_message: '' }, 'Hello'],
    ];
    for (const [name, extra, reasoning] of cases)
      for (const stream of [false, true])
        test(`${name}${stream ? ', streamed' : ''}`, async () => {
          const body = {
            messages: [{ role: 'user', content: 'abc' }],
            temperature: 0,
            max_tokens: 60,
            stream,
            ...extra,
          };
          const both = await askBoth(fixture.page, think.server, 'POST', '/v1/chat/completions', body, think.model);
          assert.equal(both.own.status, 200, both.ownText);
          const own = split(both.own.body, both.ownText);
          assert.deepEqual(own, split(both.native.body, both.nativeText));
          assert.deepEqual(own, [reasoning, 'Hello, world! 你好 😀 𝔸 café.']);
        });
  },
);
