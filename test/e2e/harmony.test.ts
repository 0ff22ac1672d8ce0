/**
 * gpt-oss's harmony messages, against Debian's native `llama-server` 0.7.0 on `inpage-test` with
 * gpt-oss's template (its gpt-oss parser, common/parsers/gpt-oss.cpp): what the model writes (held
 * to it by a grammar of the request's) is read the same, streamed and not, with the reasoning on
 * and off (the analysis channel as reasoning, a commentary preamble and the final channel as
 * content, a message to another recipient dropped with all after it); a history of reasoning,
 * calls and results renders the same (`/apply-template`: `reasoning_content` is the template's
 * `thinking`). A `response_format` is written as the final message's body and read as the
 * content (llama-server's grammar takes any word after `final`, and this model writes one to the
 * token limit: there is no answer of its to compare; harmony-call-grammar.ts). A reasoning budget
 * ends the analysis message with `<|end|>`, as llama-server's budget does with its gpt-oss tags.
 * Skipped, with what is missing, where the server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { placeModel, serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { askBoth, dataFrames, type Json } from './llama-server-compare';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

const DIR = 'dist/test-models-harmony';
const MODEL = 'inpage-test-gpt-oss';
const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);
const fixture = usePage();

const USER = { role: 'user', content: 'abc' };
const TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const CALL = { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };

/** Outputs as gpt-oss writes them (after the prompt's `<|start|>assistant`). */
const OUTPUTS = [
  '<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>final<|message|>hi',
  '<|channel|>analysis<|message|> t1 <|end|><|start|>assistant<|channel|>commentary<|message|> pre <|end|><|start|>assistant<|channel|>analysis<|message|>t2<|end|><|start|>assistant<|channel|>final<|message|> hi',
  '<|channel|>analysis<|message|>t1<|end|><|start|>assistant to=browser.search<|channel|>commentary<|message|>{}<|end|><|start|>assistant<|channel|>final<|message|>hi',
  '<|channel|>final<|message|>hi<|end|>more',
  '<|channel|>analysis<|message|>cut',
];

/** The message's text fields, which both must give alike. */
const messageOf = (body: unknown) => {
  const { choices } = body as { choices: Array<Json & { message: Json }> };
  const choice = choices[0];
  return {
    finish_reason: choice?.finish_reason,
    content: choice?.message.content || null,
    reasoning_content: choice?.message.reasoning_content ?? null,
    tool_calls: choice?.message.tool_calls ?? null,
  };
};

/** A stream's deltas, content and reasoning each joined. */
const streamed = (text: string) => {
  const deltas = dataFrames(text).map((frame) => (frame.choices as Array<{ delta?: Json }>)[0]?.delta ?? {});
  const join = (key: string) => deltas.map((delta) => (typeof delta[key] === 'string' ? delta[key] : '')).join('');
  return { content: join('content'), reasoning_content: join('reasoning_content') };
};

describe("gpt-oss's harmony messages, against llama-server", { skip: skip ?? false }, () => {
  let server: LlamaServer;
  const ask = (path: string, body: Json) => askBoth(fixture.page, server, 'POST', path, body, MODEL);

  before(async () => {
    await mkdir(DIR, { recursive: true });
    const source = await readFile('test/fixtures/chat-templates/openai-gpt-oss-120b.jinja', 'utf8');
    const bytes = buildInpageTestModel({ chatTemplate: source });
    await writeFile(`${DIR}/${MODEL}.gguf`, bytes);
    placeModel(MODEL, bytes);
    await fixture.page.evaluate((url) => window.inpage.load(url), `/test-models-harmony/${MODEL}.gguf`);
    server = await startLlamaServer({ model: MODEL, args: ['--jinja'] });
  });
  after(async () => {
    await server.stop();
    await rm(DIR, { recursive: true, force: true });
  });

  test('what the model writes is read the same, streamed and not, with the reasoning on and off', async () => {
    for (const output of OUTPUTS)
      for (const reasoning of [{}, { reasoning_format: 'none' }]) {
        const body = {
          messages: [USER],
          grammar: `root ::= ${JSON.stringify(output)}`,
          max_tokens: 300,
          temperature: 0,
          ...reasoning,
        };
        const whole = await ask('/v1/chat/completions', body);
        assert.equal(whole.own.status, 200, whole.ownText);
        assert.deepEqual(messageOf(whole.own.body), messageOf(whole.native.body), `${output}: ${whole.nativeText}`);
        const stream = await ask('/v1/chat/completions', { ...body, stream: true });
        assert.deepEqual(streamed(stream.ownText), streamed(stream.nativeText), `${output}: ${stream.nativeText}`);
      }
  });

  test("a history of reasoning, calls and their results renders as llama-server's (/apply-template)", async () => {
    const histories = [
      [
        { role: 'system', content: 'sys' },
        USER,
        { role: 'assistant', content: '', reasoning_content: 'r1', tool_calls: [CALL] },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
        { role: 'assistant', content: 'done', reasoning_content: 'r2' },
        { role: 'user', content: 'again' },
      ],
      // The reasoning of a call with no answer after it stays, as the template's `thinking`.
      [
        USER,
        { role: 'assistant', content: '', reasoning_content: 'r1', tool_calls: [CALL] },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
      [
        { role: 'developer', content: 'dev' },
        USER,
        { role: 'assistant', content: 'pre', tool_calls: [CALL] },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
    ];
    for (const messages of histories) {
      const prompt = await ask('/apply-template', { messages, tools: [TOOL] });
      assert.equal(prompt.own.status, 200, prompt.ownText);
      assert.deepEqual(prompt.own.body, prompt.native.body);
    }
  });

  test('a reasoning budget ends the analysis message with <|end|>, and the answer follows', async () => {
    const body = {
      model: MODEL,
      messages: [USER],
      // Any letters as the analysis, then the final message.
      grammar: `root ::= "<|channel|>analysis<|message|>" [a-z]+ "<|end|><|start|>assistant<|channel|>final<|message|>hi"`,
      max_tokens: 150,
      temperature: 0,
    };
    const answer = async (extra: Json) => {
      const response = await postFromPage(fixture.page, '/v1/chat/completions', { ...body, ...extra });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return messageOf(response.body);
    };
    // Unbudgeted, this model writes letters to the token limit.
    const free = await answer({});
    assert.equal(free.finish_reason, 'length');
    assert.ok(String(free.reasoning_content).length > 40, JSON.stringify(free));
    // llama-server 0.7.0 answers a budget beside a grammar with a 500 (its grammar stack empties): no answer of its to compare.
    assert.deepEqual(await answer({ reasoning_budget_tokens: 3 }), {
      finish_reason: 'stop',
      content: 'hi',
      reasoning_content: String(free.reasoning_content).slice(0, 3),
      tool_calls: null,
    });
  });

  test("a response_format is written as the final message's body and read as the content", async () => {
    const body = {
      model: MODEL,
      messages: [USER],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'answer',
          schema: {
            type: 'object',
            properties: { a: { enum: ['x', 'y'] } },
            required: ['a'],
            additionalProperties: false,
          },
        },
      },
      max_tokens: 400,
      temperature: 0,
      logprobs: true,
      // `f` favoured: the final channel, not an analysis (which this model would write to the end).
      logit_bias: { 102: 5 },
    };
    const answer = await postFromPage(fixture.page, '/v1/chat/completions', body);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const choice = (answer.body as { choices: Array<Json & { message: Json; logprobs: { content: Json[] } }> })
      .choices[0];
    const text = (choice?.logprobs.content ?? []).map((token) => token.token).join('');
    // The byte model writes whitespace wherever the grammar allows it.
    assert.match(text, /^<\|channel\|>final(\s*(<\|constrain\|>)?json)?<\|message\|>\s*\{/, text);
    assert.equal(choice?.finish_reason, 'stop', text);
    assert.equal(choice?.message.reasoning_content, undefined);
    assert.deepEqual(Object.keys(JSON.parse(String(choice?.message.content)) as object), ['a'], text);
  });
});
