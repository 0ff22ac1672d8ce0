import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { startHarness, type Harness } from './harness';

// Opt-in, for machines with a GPU and network: a real WebLLM model end to end through the
// endpoint with the openai SDK. WEBLLM_MODEL = a catalogue id (e.g. Qwen2.5-0.5B-Instruct-q4f16_1-MLC)
// or a weights-folder URL with WEBLLM_MODEL_LIB = its .wasm. Extra Chromium flags: WEBLLM_CHROMIUM_ARGS.
const model = process.env.WEBLLM_MODEL;
const skip = model ? false : 'set WEBLLM_MODEL=<catalogue id or folder URL> to run';

let harness: Harness;
let page: Page;

before(async () => {
  if (!model) return;
  const extra = (process.env.WEBLLM_CHROMIUM_ARGS ?? '--enable-unsafe-webgpu').split(/\s+/).filter(Boolean);
  harness = await startHarness({ args: extra });
  const lib = process.env.WEBLLM_MODEL_LIB;
  const query = new URLSearchParams({ backend: 'webllm', model, ...(lib ? { model_lib: lib, id: 'real' } : {}) });
  ({ page } = await harness.openPage(`/?${query}`));
});

after(async () => {
  if (model) await harness.close();
});

test('a real WebLLM model answers /v1/completions through the openai SDK', { skip }, async () => {
  const result = await page.evaluate(async () => {
    const openai = new window.OpenAI({
      baseURL: `${location.origin}/v1`,
      apiKey: 'unused',
      dangerouslyAllowBrowser: true,
    });
    const id = window.inpage.model;
    const plain = await openai.completions.create({
      model: id,
      prompt: 'The capital of France is',
      max_tokens: 8,
      temperature: 0,
      logprobs: 2,
    });
    let streamed = '';
    const stream = await openai.completions.create({
      model: id,
      prompt: ['One, two,', 'A, B,'],
      max_tokens: 6,
      temperature: 0,
      n: 2,
      stream: true,
    });
    for await (const chunk of stream)
      for (const choice of chunk.choices) if (choice.index === 0) streamed += choice.text;
    const models = await (await fetch('/v1/models')).json();
    return { plain, streamed, models };
  });
  const choice = result.plain.choices[0];
  assert.ok(choice && choice.text.length > 0);
  assert.equal(choice.logprobs?.tokens?.length, choice.logprobs?.token_logprobs?.length);
  assert.ok((result.plain.usage?.prompt_tokens ?? 0) > 0);
  assert.ok(result.streamed.length > 0);
  console.log(
    '# answer:',
    JSON.stringify(choice.text),
    '| streamed:',
    JSON.stringify(result.streamed),
    '| card:',
    JSON.stringify(result.models.data[0]),
  );
});

test(
  'a real WebLLM model answers chat (its own template), json_schema through xgrammar, and responses',
  { skip },
  async () => {
    const result = await page.evaluate(async () => {
      const openai = new window.OpenAI({
        baseURL: `${location.origin}/v1`,
        apiKey: 'unused',
        dangerouslyAllowBrowser: true,
      });
      const id = window.inpage.model;
      const chat = await openai.chat.completions.create({
        model: id,
        messages: [
          { role: 'system', content: 'Answer in one word.' },
          { role: 'user', content: 'What is the capital of France?' },
        ],
        max_tokens: 16,
        temperature: 0,
        logprobs: true,
        top_logprobs: 2,
      });
      const json = await openai.chat.completions.create({
        model: id,
        messages: [{ role: 'user', content: 'Give a city and its population as JSON.' }],
        max_tokens: 64,
        temperature: 0,
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'city',
            schema: {
              type: 'object',
              properties: { city: { type: 'string' }, population: { type: 'integer' } },
              required: ['city', 'population'],
              additionalProperties: false,
            },
          },
        },
      });
      let streamed = '';
      const stream = await openai.chat.completions.create({
        model: id,
        messages: [{ role: 'user', content: 'Count to three.' }],
        max_tokens: 16,
        temperature: 0,
        stream: true,
        stream_options: { include_usage: true },
      });
      for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
      const response = await openai.responses.create({ model: id, input: 'Say hello.', max_output_tokens: 16 });
      return { chat, json, streamed, response: response.output_text };
    });
    const message = result.chat.choices[0]?.message;
    assert.ok(message?.content && message.content.length > 0);
    assert.ok((result.chat.choices[0]?.logprobs?.content?.length ?? 0) > 0);
    assert.ok((result.chat.usage?.prompt_tokens ?? 0) > 0);
    const parsed = JSON.parse(result.json.choices[0]?.message.content ?? '');
    assert.equal(typeof parsed.city, 'string');
    assert.ok(Number.isInteger(parsed.population));
    assert.ok(result.streamed.length > 0);
    assert.ok(result.response.length > 0);
    console.log('# chat:', JSON.stringify(message.content), '| json:', result.json.choices[0]?.message.content);
  },
);
