/**
 * `inpage-test-qwen3-think` (or its `-tools` variant, which reasons in `<tool_call>` tokens) for a
 * reasoning spec: built, placed for llama-server, written under `dist/<folder>/` for the page, and
 * loaded there; what to remove afterwards.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Page } from 'playwright';
import { loadQwen3Tokenizer } from '../../scripts/load-qwen3-tokenizer';
import {
  buildInpageTestQwen3ThinkModel,
  INPAGE_TEST_QWEN3_THINK_MODEL_ID,
  INPAGE_TEST_QWEN3_THINK_TOOLS_MODEL_ID,
  QWEN3_TOOL_CALL_TOKEN,
} from '../fixtures/inpage-test-qwen3-think';
import { placeModel, startLlamaServer, type LlamaServer } from './llama-server';
import type { PageFixture } from './page-fixture';
import { askBoth, dataFrames, type Json } from './llama-server-compare';

/** The models' names for llama-server (`startLlamaServer({ model })`). */
export const THINK_MODEL = INPAGE_TEST_QWEN3_THINK_MODEL_ID;
export const THINK_TOOLS_MODEL = INPAGE_TEST_QWEN3_THINK_TOOLS_MODEL_ID;

/** Places the model for llama-server and loads it in `page` from `dist/<folder>/`; its id there. */
export async function loadThinkModel(page: Page, folder: string, name = THINK_MODEL): Promise<string> {
  const variant = name === THINK_TOOLS_MODEL ? { otherNext: QWEN3_TOOL_CALL_TOKEN } : {};
  const file = buildInpageTestQwen3ThinkModel(await loadQwen3Tokenizer(), variant);
  placeModel(name, file);
  await mkdir(`dist/${folder}`, { recursive: true });
  await writeFile(`dist/${folder}/${name}.gguf`, file);
  return (await page.evaluate((url) => window.inpage.load(url), `/${folder}/${name}.gguf`)).id;
}

/** Removes the page's copy. */
export const removeThinkModel = (folder: string) => rm(`dist/${folder}`, { recursive: true, force: true });

/**
 * In a `describe`: the model (`name`) loaded in the fixture's page from `dist/<folder>/` and
 * llama-server started on it (with `args`) before the tests, both gone after.
 */
export function useThinkServer(
  fixture: PageFixture,
  folder: string,
  { name = THINK_MODEL, args = [] }: { name?: string; args?: readonly string[] } = {},
): { readonly server: LlamaServer; readonly model: string } {
  let server: LlamaServer | undefined;
  let model = '';
  before(async () => {
    model = await loadThinkModel(fixture.page, folder, name);
    server = await startLlamaServer({ model: name, args });
  });
  after(async () => {
    await server?.stop();
    await removeThinkModel(folder);
  });
  return {
    get server() {
      if (!server) throw new Error('llama-server starts in before()');
      return server;
    },
    get model() {
      return model;
    },
  };
}

export interface Answer {
  reasoning: string;
  content: string;
  finish: unknown;
  completion: unknown;
}

/** A chat completion's reasoning, content, finish reason and completion tokens (JSON or SSE). */
export function answerOf(body: unknown, text: string, stream: boolean): Answer {
  if (!stream) {
    const choice = ((body as Json).choices as Json[])[0] as Json;
    const message = choice.message as Json;
    const usage = (body as Json).usage as Json;
    return {
      reasoning: String(message.reasoning_content ?? ''),
      content: String(message.content ?? ''),
      finish: choice.finish_reason,
      completion: usage.completion_tokens,
    };
  }
  const answer: Answer = { reasoning: '', content: '', finish: null, completion: null };
  for (const frame of dataFrames(text)) {
    for (const choice of (frame.choices as Json[] | undefined) ?? []) {
      const delta = (choice.delta ?? {}) as Json;
      answer.reasoning += String(delta.reasoning_content ?? '');
      answer.content += String(delta.content ?? '');
      if (choice.finish_reason) answer.finish = choice.finish_reason;
    }
    if (frame.usage) answer.completion = (frame.usage as Json).completion_tokens;
  }
  return answer;
}

/**
 * Asks both a chat completion (`stream` as `body` says): both 200, with the same answer; ours,
 * and our response's text.
 */
export async function sameAnswer(
  page: Page,
  server: LlamaServer,
  body: Json,
  model: string,
): Promise<{ own: Answer; ownText: string }> {
  const stream = body.stream === true;
  const both = await askBoth(page, server, 'POST', '/v1/chat/completions', body, model);
  assert.equal(both.own.status, 200, both.ownText);
  assert.equal(both.native.status, 200, both.nativeText);
  const own = answerOf(both.own.body, both.ownText, stream);
  assert.deepEqual(own, answerOf(both.native.body, both.nativeText, stream));
  return { own, ownText: both.ownText };
}
