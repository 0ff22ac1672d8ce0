/**
 * Strict function tools on `inpage-test` (greedy; the model follows its successor rule wherever
 * the grammar allows): a named strict tool forces one `<tool_call>` whose arguments validate
 * against the tool's schema, non-stream and streamed (argument pieces that join to the same
 * arguments), through fetch, the openai SDK's stream helper, the Responses API and the AI SDK.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONSchema7 } from 'ai';
import { Ajv } from 'ajv';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';
import { loadSdk } from './sdk-scripts';

const fixture = usePage(undefined, (page) => loadSdk(page, 'ai-sdk'));

const SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 2, maxLength: 5 },
    unit: { enum: ['c', 'f'] },
    days: { type: 'integer', minimum: 3, maximum: 7 },
  },
  required: ['city', 'unit', 'days'],
  additionalProperties: false,
} satisfies JSONSchema7;

const TOOL = { type: 'function', function: { name: 'get_weather', parameters: SCHEMA, strict: true } } as const;

/** A named strict tool, one call: the byte model writes JSON whitespace wherever it may, so the call takes ~450 tokens. */
const CHAT = {
  model: 'inpage-test',
  messages: [{ role: 'user', content: 'abc' }],
  max_tokens: 1500,
  temperature: 0,
  tools: [TOOL],
  tool_choice: { type: 'function', function: { name: 'get_weather' } },
  parallel_tool_calls: false,
};

/** What the grammar leaves the model: its preferred byte wherever the schema allows one. */
const ARGUMENTS = '{"city":"     ","unit":"c","days":3}';

type ToolCall = { id: string; type: string; function: { name: string; arguments: string } };
type Chunk = {
  choices: Array<{
    delta: { content?: string; tool_calls?: Array<Partial<ToolCall> & { index: number }> };
    finish_reason: string | null;
  }>;
};

const validate = (args: string): string | null => {
  const check = new Ajv().compile(SCHEMA);
  return check(JSON.parse(args)) ? null : JSON.stringify(check.errors);
};

describe('strict function tools', () => {
  test('a named strict tool: one call whose arguments validate, finish_reason tool_calls (non-stream)', async () => {
    const response = await postFromPage(fixture.page, '/v1/chat/completions', CHAT);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const choice = (
      response.body as {
        choices: Array<{ message: { content: string | null; tool_calls: ToolCall[] }; finish_reason: string }>;
      }
    ).choices[0];
    assert.equal(choice?.finish_reason, 'tool_calls');
    assert.equal(choice?.message.content, null);
    assert.equal(choice?.message.tool_calls.length, 1);
    const call = choice?.message.tool_calls[0];
    assert.match(call?.id ?? '', /^call_/);
    assert.deepEqual([call?.type, call?.function.name], ['function', 'get_weather']);
    assert.equal(validate(call?.function.arguments ?? ''), null);
    assert.equal(call?.function.arguments, ARGUMENTS);
  });

  test('streamed: the call opens with index, id, type, name and empty arguments, then argument pieces that join to the same arguments', async () => {
    const chunks = await fixture.page.evaluate(async (body) => {
      const response = await fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, stream: true }),
      });
      const events: unknown[] = [];
      const parser = window.createParser({
        onEvent: (event) => void (event.data === '[DONE]' || events.push(JSON.parse(event.data))),
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) parser.feed(read.value);
      return events;
    }, CHAT);
    const choices = (chunks as Chunk[]).flatMap((chunk) => chunk.choices);
    const calls = choices.flatMap((choice) => choice.delta.tool_calls ?? []);
    assert.deepEqual(
      { ...calls[0], id: undefined },
      { index: 0, id: undefined, type: 'function', function: { name: 'get_weather', arguments: '' } },
    );
    assert.match(calls[0]?.id ?? '', /^call_/);
    assert.ok(calls.length > 3, `the arguments come in pieces: ${JSON.stringify(calls)}`);
    for (const piece of calls.slice(1)) assert.deepEqual(Object.keys(piece).sort(), ['function', 'index']);
    assert.equal(calls.map((c) => c.function?.arguments ?? '').join(''), ARGUMENTS);
    assert.equal(choices.map((c) => c.delta.content ?? '').join(''), '', 'no markup leaks into content');
    assert.deepEqual(
      choices.map((c) => c.finish_reason).filter((r) => r !== null),
      ['tool_calls'],
    );
  });

  test("the openai SDK's chat.completions.stream accumulates the call; Responses streams function_call_arguments events", async () => {
    const result = await fixture.page.evaluate(
      async ({ body, fn }) => {
        const client = new window.OpenAI({
          baseURL: location.origin + '/v1',
          apiKey: 'unused',
          dangerouslyAllowBrowser: true,
        });
        const stream = client.chat.completions.stream({ ...body, stream: true } as never);
        const final = await stream.finalChatCompletion();
        const events = await client.responses.create({
          model: body.model,
          input: 'abc',
          max_output_tokens: body.max_tokens,
          temperature: 0,
          tools: [{ type: 'function', name: fn.name, parameters: fn.parameters, strict: true }],
          tool_choice: { type: 'function', name: fn.name },
          parallel_tool_calls: false,
          stream: true,
        });
        const seen: Array<Record<string, unknown>> = [];
        for await (const event of events) seen.push(JSON.parse(JSON.stringify(event)));
        return { final: JSON.parse(JSON.stringify(final)), events: seen };
      },
      { body: CHAT, fn: TOOL.function },
    );
    const message = result.final.choices[0].message;
    assert.equal(result.final.choices[0].finish_reason, 'tool_calls');
    assert.equal(message.tool_calls[0].function.arguments, ARGUMENTS);
    assert.deepEqual(message.tool_calls[0].function.parsed_arguments, JSON.parse(ARGUMENTS));

    const types = result.events.map((e) => e.type);
    const added = result.events.find((e) => e.type === 'response.output_item.added');
    assert.deepEqual(added?.item, {
      ...(added?.item as object),
      type: 'function_call',
      name: 'get_weather',
      arguments: '',
    });
    const deltas = result.events.filter((e) => e.type === 'response.function_call_arguments.delta');
    assert.ok(types.indexOf('response.output_item.added') < types.indexOf('response.function_call_arguments.delta'));
    assert.ok(deltas.length > 3);
    assert.equal(deltas.map((e) => e.delta).join(''), ARGUMENTS);
    const done = result.events.find((e) => e.type === 'response.function_call_arguments.done');
    assert.equal(done?.arguments, ARGUMENTS);
    const completed = result.events.at(-1) as { type: string; response: { output: Array<Record<string, unknown>> } };
    assert.equal(completed.type, 'response.completed');
    assert.deepEqual(
      completed.response.output.map((item) => [item.type, item.name, item.arguments, item.status]),
      [['function_call', 'get_weather', ARGUMENTS, 'completed']],
    );
    assert.equal(types.includes('response.output_text.delta'), false);
  });

  test("the AI SDK's streamText (chat model, strict tool): tool-input deltas join to the arguments, one tool-call", async () => {
    const parts = await fixture.page.evaluate(async (schema) => {
      const { streamText, createOpenAI, jsonSchema, tool } = window.AISDK;
      const openai = createOpenAI({ baseURL: location.origin + '/v1', apiKey: 'x' });
      const result = streamText({
        model: openai.chat('inpage-test'),
        prompt: 'abc',
        maxOutputTokens: 1500,
        temperature: 0,
        tools: { get_weather: tool({ inputSchema: jsonSchema(schema), strict: true }) },
        toolChoice: { type: 'tool', toolName: 'get_weather' },
        providerOptions: { openai: { parallelToolCalls: false } },
      });
      const seen: Array<{ type: string; delta?: string; input?: unknown; finishReason?: string }> = [];
      for await (const part of result.fullStream) {
        if (part.type === 'tool-input-delta') seen.push({ type: part.type, delta: part.delta });
        else if (part.type === 'tool-call') seen.push({ type: part.type, input: part.input });
        else if (part.type === 'finish') seen.push({ type: part.type, finishReason: part.finishReason });
      }
      return seen;
    }, SCHEMA);
    const deltas = parts.filter((p) => p.type === 'tool-input-delta').map((p) => p.delta);
    assert.ok(deltas.length > 3);
    assert.equal(deltas.join(''), ARGUMENTS);
    assert.deepEqual(
      parts.filter((p) => p.type !== 'tool-input-delta'),
      [
        { type: 'tool-call', input: JSON.parse(ARGUMENTS) },
        { type: 'finish', finishReason: 'tool-calls' },
      ],
    );
  });

  test('auto: the grammar waits for <tool_call> (free text meanwhile); with response_format it is a 400', async () => {
    const free = await postFromPage(fixture.page, '/v1/chat/completions', {
      ...CHAT,
      tool_choice: 'auto',
      max_tokens: 5,
    });
    assert.equal(free.status, 200, JSON.stringify(free.body));
    const choice = (free.body as { choices: Array<{ message: { content: string }; finish_reason: string }> })
      .choices[0];
    assert.deepEqual([choice?.message.content, choice?.finish_reason], ['defgh', 'length']);
    const conflict = await postFromPage(fixture.page, '/v1/chat/completions', {
      ...CHAT,
      response_format: { type: 'json_object' },
    });
    assert.equal(conflict.status, 400);
    assert.deepEqual(
      [
        (conflict.body as { error: { param: string; code: string } }).error.param,
        (conflict.body as { error: { param: string; code: string } }).error.code,
      ],
      ['response_format', 'conflicting_constraints'],
    );
  });
});
