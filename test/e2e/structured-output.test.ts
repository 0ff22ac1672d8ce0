/**
 * Structured output through the real client SDKs on `inpage-test`: the AI SDK's
 * `Output.object` (Responses API `text.format` and chat `response_format`) and LangChain's
 * `withStructuredOutput` (json_schema). The grammar makes the test model's output valid JSON
 * for the schema, which Ajv checks.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONSchema7 } from 'ai';
import { Ajv } from 'ajv';
import { usePage } from './page-fixture';
import { loadSdk } from './sdk-scripts';

const fixture = usePage(undefined, async (page) => {
  await loadSdk(page, 'ai-sdk');
  await loadSdk(page, 'langchain');
});

const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string', maxLength: 3 }, size: { type: 'string', enum: ['s', 'm'] } },
  required: ['name', 'size'],
  additionalProperties: false,
} satisfies JSONSchema7;

const valid = (value: unknown): string | null => {
  const validate = new Ajv().compile(SCHEMA);
  return validate(value) ? null : JSON.stringify(validate.errors);
};

describe('structured output with the client SDKs', () => {
  for (const api of ['responses', 'chat'] as const) {
    test(`AI SDK Output.object (${api}): the object validates against the schema`, async () => {
      const object = await fixture.page.evaluate(
        async ({ api, schema }) => {
          const { generateText, createOpenAI, Output, jsonSchema } = window.AISDK;
          const openai = createOpenAI({ baseURL: location.origin + '/v1', apiKey: 'x' });
          const model = api === 'responses' ? openai('inpage-test') : openai.chat('inpage-test');
          const answer = await generateText({
            model,
            prompt: 'a',
            maxOutputTokens: 1500,
            temperature: 0,
            output: Output.object({ schema: jsonSchema(schema) }),
          });
          return answer.output;
        },
        { api, schema: SCHEMA },
      );
      assert.equal(valid(object), null, JSON.stringify(object));
    });
  }

  test('LangChain withStructuredOutput (jsonSchema method): the object validates against the schema', async () => {
    const object = await fixture.page.evaluate(async (schema) => {
      const { ChatOpenAI } = window.LangChain;
      const model = new ChatOpenAI({
        model: 'inpage-test',
        configuration: { baseURL: location.origin + '/v1' },
        apiKey: 'x',
        temperature: 0,
        maxTokens: 1500,
      });
      return model.withStructuredOutput({ title: 'thing', ...schema }, { method: 'jsonSchema' }).invoke('a');
    }, SCHEMA);
    assert.equal(valid(object), null, JSON.stringify(object));
  });
});
