/**
 * Tool calls in the model's own format: `inpage-test` with Llama 3.2's chat template (bare JSON
 * calls, `parameters`), Mistral Nemo's (one array after `[TOOL_CALLS]`), Ministral 3's (the name
 * before the arguments: `[TOOL_CALLS]f[ARGS]{...}`), LFM2.5's (a Python-style list:
 * `<|tool_call_start|>[f(a='x')]<|tool_call_end|>`) and Gemma 4's (its own notation:
 * `<|tool_call>call:f{a:<|"|>x<|"|>}<tool_call|>`), all from test/fixtures/chat-templates. A named
 * strict tool makes the grammar write the call in the template's format, and the SW's parser reads
 * it back as `tool_calls` (the byte model follows its successor rule wherever the grammar allows:
 * the arguments are the grammar's choice). The output's tokens (logprobs) show the format; a Hermes
 * grammar would have written `<tool_call>`. Against Debian's llama-server 0.7.0 on the same GGUF,
 * with a tool that is not strict (both hold it to its schema) and `{` favoured (logit_bias):
 * llama-server's `required` grammar (text until a `{`, then calls) gives the same call, read the
 * same. On LFM2.5's and Ministral 3's templates, a call in the history renders as llama-server
 * renders it (`/apply-template`), and on LFM2.5's a call written by a grammar of the request's is
 * read with its values as JSON. With Qwen3.5's template (tagged calls): a call written as tags by a
 * grammar of the request's is read with its values typed, and a strict tool's call is written as tags.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { placeModel, serverSkip, startLlamaServer } from './llama-server';
import { askBoth } from './llama-server-compare';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

const DIR = 'dist/test-models-tools';
const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);
const fixture = usePage();

const SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string', maxLength: 3 }, unit: { enum: ['c', 'f'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const TOOL = { type: 'function', function: { name: 'get_weather', parameters: SCHEMA, strict: true } };

/** Gemma 4's template: calls in Gemma's notation (`<|tool_call>call:f{city:<|"|>x<|"|>}<tool_call|>`). */
const GEMMA = { id: 'inpage-test-gemma4', template: 'google-gemma-4-31B-it' };
/** MiniCPM5's template: XML calls (`<function name="f"><param name="city">x</param></function>`). */
const MINICPM5 = { id: 'inpage-test-minicpm5', template: 'openbmb-MiniCPM5-1B' };
/** Thinking off: the template's answer opens `<think>`, which this model would never close. */
const NO_THINKING = { chat_template_kwargs: { enable_thinking: false } };

const MODELS = [
  {
    id: 'inpage-test-llama3',
    template: 'meta-llama-Llama-3.2-3B-Instruct',
    starts: '{"name":"get_weather","parameters":{',
  },
  {
    id: 'inpage-test-mistral',
    template: 'mistralai-Mistral-Nemo-Instruct-2407',
    starts: '[TOOL_CALLS][{"name":"get_weather","arguments":{',
  },
  {
    id: 'inpage-test-ministral',
    template: 'mistralai-Ministral-3-14B-Reasoning-2512',
    starts: '[TOOL_CALLS]get_weather[ARGS]{',
    // Its template writes `[THINK]`: the reasoning left in the content, the grammar applies from the first token.
    extra: { reasoning_format: 'none' },
  },
  {
    id: 'inpage-test-lfm2',
    template: 'LFM2.5-8B-A1B',
    starts: '<|tool_call_start|>[get_weather(',
    // Its template writes `<think>`: the reasoning left in the content, the grammar applies from the first token.
    extra: { reasoning_format: 'none' },
  },
  // The schema in Gemma's notation: keys bare and sorted, strings between `<|"|>` marks.
  { ...GEMMA, starts: '<|tool_call>call:get_weather{city:<|"|>', extra: NO_THINKING },
  // Each argument as XML, its string text held to the schema (three characters at most, no `<`).
  { ...MINICPM5, starts: '<functionname="get_weather"><paramname="city">', extra: NO_THINKING },
  // A harmony message to the function, the arguments its body.
  { id: 'inpage-test-gpt-oss', template: 'openai-gpt-oss-120b', starts: 'to=functions.get_weather<|channel|>' },
];

/** Qwen3.5's template: tagged calls (`<function=…>`), held by their own grammar. */
const QWEN35 = { id: 'inpage-test-qwen35', template: 'Qwen3.5-4B' };

interface Call {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}
interface Answer {
  choices: Array<{
    finish_reason: string;
    message: { content: string | null; tool_calls?: Call[] };
    logprobs: { content: Array<{ token: string }> } | null;
  }>;
}

/**
 * What the SW reads in `text`, written by `model` as a grammar of the request's own holds it to
 * (a request's constraint wins over tools that are not strict; llama-server takes no grammar with
 * tools): the finish reason, the content and the calls' functions.
 */
async function readWritten(model: string, text: string, tools: unknown[], extra: object = {}): Promise<unknown[]> {
  const response = await postFromPage(fixture.page, '/v1/chat/completions', {
    model,
    messages: [{ role: 'user', content: 'abc' }],
    tools,
    grammar: `root ::= ${JSON.stringify(text)}`,
    max_tokens: 200,
    temperature: 0,
    ...extra,
  });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  const choice = (response.body as Answer).choices[0];
  return [choice?.finish_reason, choice?.message.content, choice?.message.tool_calls?.map((call) => call.function)];
}

/**
 * Each of `texts`, written by `model` as a grammar of the request's holds it to, read by the SW as
 * llama-server reads it: its content and each call's name and arguments as data (llama-server
 * keeps a JSON value's whitespace; this engine compacts it). llama-server takes no grammar with
 * tools: it reads the text as an assistant message it continues, the end of text (257) its only
 * next token.
 */
async function readAlike(model: string, parameters: object, texts: readonly string[]): Promise<void> {
  const tools = [{ type: 'function', function: { name: 'get_weather', parameters } }];
  const read = (message: Answer['choices'][number]['message'] | undefined) => ({
    content: message?.content || null,
    calls: (message?.tool_calls ?? []).map((c) => [c.function.name, JSON.parse(c.function.arguments) as unknown]),
  });
  const server = await startLlamaServer({ model, args: ['--jinja'] });
  try {
    for (const text of texts) {
      const [, content, calls] = await readWritten(model, text, tools, NO_THINKING);
      const own = read({
        content: content as string | null,
        tool_calls: (calls as Call['function'][]).map((f) => ({ id: '', type: 'function', function: f })),
      });
      const reply = await fetch(`${server.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          messages: [
            { role: 'user', content: 'abc' },
            { role: 'assistant', content: text },
          ],
          tools,
          logit_bias: { 257: 100 },
          max_tokens: 4,
          temperature: 0,
          ...NO_THINKING,
        }),
      });
      assert.equal(reply.status, 200, text);
      const native = read(((await reply.json()) as Answer).choices[0]?.message);
      assert.deepEqual(own, native, text);
      assert.ok(native.calls.length > 0, text);
    }
  } finally {
    await server.stop();
  }
}

describe("tool calls in the template's own format", () => {
  before(async () => {
    await mkdir(DIR, { recursive: true });
    for (const { id, template } of [...MODELS, QWEN35]) {
      const source = await readFile(`test/fixtures/chat-templates/${template}.jinja`, 'utf8');
      const bytes = buildInpageTestModel({ chatTemplate: source });
      await writeFile(`${DIR}/${id}.gguf`, bytes);
      if (skip === null) placeModel(id, bytes);
      await fixture.page.evaluate((url) => window.inpage.load(url), `/test-models-tools/${id}.gguf`);
    }
  });

  after(() => rm(DIR, { recursive: true, force: true }));

  for (const { id, starts, extra } of MODELS) {
    test(`${id}: a named strict tool's call is written as ${starts}… and read back as tool_calls`, async () => {
      const body = {
        model: id,
        messages: [{ role: 'user', content: 'abc' }],
        tools: [TOOL],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        parallel_tool_calls: false,
        max_tokens: 1500,
        temperature: 0,
        logprobs: true,
        ...extra,
      };
      const response = await postFromPage(fixture.page, '/v1/chat/completions', body);
      assert.equal(response.status, 200, JSON.stringify(response.body));
      const choice = (response.body as Answer).choices[0];
      assert.ok(choice);
      assert.equal(choice.finish_reason, 'tool_calls', JSON.stringify(choice.message));
      assert.equal(choice.message.content, null);
      const calls = choice.message.tool_calls ?? [];
      assert.deepEqual(
        calls.map((call) => [call.type, call.function.name]),
        [['function', 'get_weather']],
      );
      const args = JSON.parse(calls[0]?.function.arguments ?? '') as { city: string; unit: string };
      assert.deepEqual(Object.keys(args), ['city', 'unit']);
      assert.ok(args.city.length <= 3 && ['c', 'f'].includes(args.unit), JSON.stringify(args));
      const text = (choice.logprobs?.content ?? []).map((token) => token.token).join('');
      // The byte model writes whitespace wherever the grammar allows it.
      assert.ok(text.replace(/\s/g, '').startsWith(starts), text);
      // Streamed: the same call, its arguments in pieces.
      const streamed = await fixture.page.evaluate(async (request) => {
        const reply = await fetch('/v1/chat/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...request, stream: true, logprobs: false }),
        });
        const frames = (await reply.text()).split('\n\n').filter((frame) => frame.startsWith('data: {'));
        const chunks = frames.map(
          (frame) =>
            JSON.parse(frame.slice(6)) as {
              choices: Array<{ delta: { tool_calls?: Array<{ function?: { name?: string; arguments?: string } }> } }>;
            },
        );
        const pieces = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
        return {
          name: pieces.map((piece) => piece.function?.name ?? '').join(''),
          args: pieces.map((piece) => piece.function?.arguments ?? '').join(''),
        };
      }, body);
      assert.deepEqual(streamed, { name: 'get_weather', args: calls[0]?.function.arguments });
      // The call goes back in the next turn as a client sends it, and the template takes it
      // (Mistral's takes only ids of 9 letters or digits: a `call_…` id was a 400).
      const next = await postFromPage(fixture.page, '/v1/chat/completions', {
        model: id,
        messages: [
          { role: 'user', content: 'abc' },
          { role: 'assistant', content: null, tool_calls: calls },
          { role: 'tool', tool_call_id: calls[0]?.id, content: 'sunny' },
        ],
        max_tokens: 2,
        temperature: 0,
      });
      assert.equal(next.status, 200, JSON.stringify(next.body));
    });
  }

  test(
    'inpage-test-llama3 against llama-server: the same call, read the same (`{` favoured by logit_bias)',
    { skip: skip ?? false },
    async () => {
      const server = await startLlamaServer({ model: 'inpage-test-llama3', args: ['--jinja'] });
      try {
        const body = {
          messages: [{ role: 'user', content: 'abc' }],
          // Not strict: llama-server holds every tool to its schema, and so does this engine.
          tools: [{ type: 'function', function: { name: 'get_weather', parameters: SCHEMA } }],
          tool_choice: 'required',
          parallel_tool_calls: false,
          max_tokens: 1500,
          temperature: 0,
          // `{` (123): llama-server's grammar lets text come first, and this model would write newlines.
          logit_bias: { 123: 30 },
        };
        const answer = await askBoth(fixture.page, server, 'POST', '/v1/chat/completions', body, 'inpage-test-llama3');
        assert.equal(answer.own.status, 200, answer.ownText);
        const read = (reply: unknown) => {
          const choice = (reply as Answer).choices[0];
          const calls = (choice?.message.tool_calls ?? []).map((call) => [
            call.function.name,
            JSON.parse(call.function.arguments) as unknown,
          ]);
          return { finish: choice?.finish_reason, content: choice?.message.content || null, calls };
        };
        assert.deepEqual(read(answer.own.body), read(answer.native.body));
        assert.deepEqual(read(answer.own.body), {
          finish: 'tool_calls',
          content: null,
          calls: [['get_weather', { city: '{{{', unit: 'c' }]],
        });
      } finally {
        await server.stop();
      }
    },
  );

  // Values LFM2's template writes with Jinja's `string` filter as Python writes them: True, None, ['a', 1].
  const HISTORY = [
    {
      id: 'inpage-test-lfm2',
      call: `<|tool_call_start|>[get_weather(city='Paris', days=3, metric=True, note=None, tags=['a', 1], opts={"k": "v"})]<|tool_call_end|>`,
    },
    {
      id: GEMMA.id,
      call: '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3,metric:true,note:,opts:{k:<|"|>v<|"|>},tags:[<|"|>a<|"|>,1]}<tool_call|>',
    },
    {
      id: 'inpage-test-ministral',
      call: '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris", "days": 3, "metric": true, "note": null, "tags": ["a", 1], "opts": {"k": "v"}}',
    },
    {
      id: MINICPM5.id,
      call: `<function name="get_weather"><param name="city">Paris</param><param name="days">3</param><param name="metric">True</param><param name="note"></param><param name="tags">a1</param><param name="opts"></param></function>`,
    },
  ];
  for (const { id, call } of HISTORY) {
    test(
      `${id} against llama-server: a call in the history is rendered as the template writes it`,
      { skip: skip ?? false },
      async () => {
        const server = await startLlamaServer({ model: id, args: ['--jinja'] });
        try {
          const args = { city: 'Paris', days: 3, metric: true, note: null, tags: ['a', 1], opts: { k: 'v' } };
          const body = {
            messages: [
              { role: 'user', content: 'abc' },
              {
                role: 'assistant',
                content: null,
                // LFM2.5's template reads it as `thinking`, where llama-server copies it.
                reasoning_content: 'zq_thought',
                tool_calls: [
                  { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(args) } },
                ],
              },
              { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
            ],
            tools: [TOOL],
          };
          const answer = await askBoth(fixture.page, server, 'POST', '/apply-template', body, id);
          assert.equal(answer.own.status, 200, answer.ownText);
          assert.deepEqual(answer.own.body, answer.native.body);
          const { prompt } = answer.own.body as { prompt: string };
          assert.ok(prompt.includes(call), prompt);
        } finally {
          await server.stop();
        }
      },
    );
  }

  test(
    'inpage-test-minicpm5 against llama-server: XML calls (what MiniCPM5 writes) are read the same',
    { skip: skip ?? false },
    async () => {
      const properties = {
        city: { type: 'string' },
        days: { type: 'integer' },
        opts: { type: 'object' },
        mix: { type: ['string', 'integer'] },
        // Read as llama-server reads their kinds: a $ref's target, anyOf's alternatives, any value.
        place: { $ref: '#/$defs/place' },
        alt: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
        any: {},
      };
      const call = (params: string) => `<function name="get_weather">${params}</function>`;
      await readAlike(MINICPM5.id, { type: 'object', properties, $defs: { place: { type: 'string' } } }, [
        `Checking. ${call('<param name="city">Paris</param><param name="days">3</param>')}`,
        call('<param name="city"><![CDATA[a<b\n&c]]></param><param name="opts">{"a": [1, 2]}</param>'),
        `${call('\n<param name="city"> Paris </param>\n<param name="mix">3</param>\n')}\n${call('')}`,
        call('<param name="place">3</param><param name="alt">x</param><param name="any">[1]</param>'),
      ]);
    },
  );

  test(
    'inpage-test-qwen35 against llama-server: tagged calls (what Qwen3.5 writes) are read the same, each value typed by its schema',
    { skip: skip ?? false },
    async () => {
      const properties = {
        city: { type: 'string' },
        days: { type: 'integer' },
        mix: { type: ['string', 'integer'] },
        place: { $ref: '#/$defs/place' },
        alt: { anyOf: [{ type: 'integer' }, { $ref: '#/$defs/place' }] },
        any: {},
      };
      const param = (key: string, value: string) => `<parameter=${key}>\n${value}\n</parameter>\n`;
      const call = (params: string) => `<tool_call>\n<function=get_weather>\n${params}</function>\n</tool_call>`;
      await readAlike(QWEN35.id, { type: 'object', properties, $defs: { place: { type: 'string' } } }, [
        call(param('city', 'Paris') + param('days', '3')),
        // A $ref to a string is text; a string-or-integer's JSON of another kind is text.
        call(param('place', '3') + param('mix', 'true') + param('alt', '4')),
        call(param('any', '"x"') + param('alt', 'x')),
      ]);
    },
  );

  test('inpage-test-lfm2: a Python-style call (what LFM2 writes) is read, its values as JSON', async () => {
    const text = `Let me check.<|tool_call_start|>[get_weather(city='New York', days=3, metric=True, tags=['a', None]), noop()]<|tool_call_end|>`;
    const tools = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } },
      { type: 'function', function: { name: 'noop' } },
    ];
    assert.deepEqual(await readWritten('inpage-test-lfm2', text, tools), [
      'tool_calls',
      'Let me check.',
      [
        { name: 'get_weather', arguments: '{"city":"New York","days":3,"metric":true,"tags":["a",null]}' },
        { name: 'noop', arguments: '{}' },
      ],
    ]);
  });

  test("inpage-test-gemma4: a tool that is not strict gets llama-server's grammar (any dict in Gemma notation); the call is read back", async () => {
    const base = {
      model: GEMMA.id,
      messages: [{ role: 'user', content: 'abc' }],
      // Thinking off: the prompt closes the thought channel, so the grammar starts with the call.
      chat_template_kwargs: { enable_thinking: false },
      tool_choice: 'required',
      parallel_tool_calls: false,
      max_tokens: 300,
      temperature: 0,
      logprobs: true,
    };
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    const response = await postFromPage(fixture.page, '/v1/chat/completions', {
      ...base,
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: schema } }],
      // `:` and `}` favoured: a key, then the dict's end (the byte model repeats any other sign).
      logit_bias: { 58: 30, 125: 20 },
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const choice = (response.body as Answer).choices[0];
    const text = (choice?.logprobs?.content ?? []).map((token) => token.token).join('');
    assert.ok(text.startsWith('<|tool_call>call:get_weather{'), text);
    assert.equal(choice?.finish_reason, 'tool_calls', text);
    const [call] = choice.message.tool_calls ?? [];
    assert.equal(call?.function.name, 'get_weather');
    assert.equal(typeof JSON.parse(call?.function.arguments ?? 'null'), 'object', text);
  });

  test("inpage-test-gemma4: a call in Gemma's notation (what Gemma 4 writes) is read, its values as JSON", async () => {
    const text =
      'Let me check.<|tool_call>call:get_weather{city:<|"|>New York<|"|>,days:3,opts:{metric:true,tags:[<|"|>a<|"|>,null]}}<tool_call|>';
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }];
    assert.deepEqual(await readWritten(GEMMA.id, text, tools), [
      'tool_calls',
      'Let me check.',
      [{ name: 'get_weather', arguments: '{"city":"New York","days":3,"opts":{"metric":true,"tags":["a",null]}}' }],
    ]);
  });

  test("inpage-test-qwen35: a tagged call (what Qwen3.5 writes) is read, each value typed by the tool's schema", async () => {
    const text = [
      'Let me check.',
      '<tool_call>',
      '<function=get_weather>',
      '<parameter=city>',
      'New York',
      '</parameter>',
      '<parameter=days>',
      '3',
      '</parameter>',
      '</function>',
      '</tool_call>',
    ].join('\n');
    const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } };
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: schema } }];
    assert.deepEqual(await readWritten(QWEN35.id, text, tools, NO_THINKING), [
      'tool_calls',
      'Let me check.\n',
      [{ name: 'get_weather', arguments: '{"city":"New York","days":3}' }],
    ]);
  });

  test("inpage-test-qwen35: a strict tool's call is written as tags, as llama-server's Qwen3-Coder grammar writes it", async () => {
    // One integer argument (3 to 7): text values, which the byte model would go on writing, are for the test above.
    const schema = {
      type: 'object',
      properties: { days: { type: 'integer', minimum: 3, maximum: 7 } },
      required: ['days'],
    };
    const body = {
      model: QWEN35.id,
      messages: [{ role: 'user', content: 'abc' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: schema, strict: true } }],
      tool_choice: 'required',
      parallel_tool_calls: false,
      max_tokens: 200,
      temperature: 0,
      logprobs: true,
      ...NO_THINKING,
    };
    const response = await postFromPage(fixture.page, '/v1/chat/completions', body);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const choice = (response.body as Answer).choices[0];
    const text = (choice?.logprobs?.content ?? []).map((token) => token.token).join('');
    assert.ok(text.startsWith('<tool_call>\n<function=get_weather>\n<parameter=days>\n'), text);
    assert.equal(choice?.finish_reason, 'tool_calls', text);
    const [call] = choice.message.tool_calls ?? [];
    const args = JSON.parse(call?.function.arguments ?? '') as { days: number };
    assert.ok(call?.function.name === 'get_weather' && args.days >= 3 && args.days <= 7, JSON.stringify(call));
  });
});
