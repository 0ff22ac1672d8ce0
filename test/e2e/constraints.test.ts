/**
 * Constrained output on `inpage-test` (greedy; the model follows its successor rule wherever the
 * constraint allows): GBNF, regex, choices and JSON schema, through fetch and the openai SDK.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

const fixture = usePage();

type Completion = { choices: Array<{ text: string; finish_reason: string }> };
type ErrorBody = { error: { param: string | null; code: string | null; message: string } };

const complete = (body: Record<string, unknown>) =>
  postFromPage(fixture.page, '/v1/completions', { model: 'inpage-test', max_tokens: 20, temperature: 0, ...body });

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 4 },
    size: { enum: ['s', 'm'] },
    tags: { type: 'array', items: { type: 'string', maxLength: 2 }, maxItems: 2 },
    inner: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  },
  required: ['name', 'size', 'tags', 'inner'],
} as const;

describe('constrained output on inpage-test', () => {
  test('GBNF root ::= "xyz" [a-z] [a-z] [a-z] on prompt a -> xyzabc, finish stop', async () => {
    const response = await complete({ prompt: 'a', grammar: 'root ::= "xyz" [a-z] [a-z] [a-z]' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const body = response.body as Completion;
    assert.deepEqual([body.choices[0]?.text, body.choices[0]?.finish_reason], ['xyzabc', 'stop']);
  });

  test('regex [0-9]{3}-x[a-z]{2} on prompt 7 -> 890-xyz (SGLang regex and vLLM guided_regex)', async () => {
    for (const field of ['regex', 'guided_regex']) {
      const response = await complete({ prompt: '7', [field]: '[0-9]{3}-x[a-z]{2}' });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      assert.equal((response.body as Completion).choices[0]?.text, '890-xyz', field);
    }
  });

  test('guided_choice picks the allowed continuation; streamed constrained output is the same', async () => {
    const response = await complete({ prompt: 'a', guided_choice: ['cat', 'bcd', 'dog'] });
    assert.equal((response.body as Completion).choices[0]?.text, 'bcd');
    const streamed = await fixture.page.evaluate(async () => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'unused',
        dangerouslyAllowBrowser: true,
      });
      // llama.cpp's `grammar` is not in the SDK's types; the SDK sends extra body fields as given.
      const params = {
        model: 'inpage-test',
        prompt: 'a',
        max_tokens: 20,
        temperature: 0,
        stream: true as const,
        grammar: 'root ::= "xyz" [a-z] [a-z] [a-z]',
      };
      const stream = await client.completions.create(params);
      let text = '';
      for await (const chunk of stream) for (const choice of chunk.choices) text += choice.text;
      return text;
    });
    assert.equal(streamed, 'xyzabc');
  });

  test('a JSON schema (required, enum, maxLength, nested objects and arrays): the output parses and validates', async () => {
    // The test model prefers whitespace wherever JSON allows it (up to llama.cpp's 20-character runs), so JSON takes many tokens.
    const response = await complete({ prompt: 'a', max_tokens: 1500, json_schema: SCHEMA });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const text = (response.body as Completion).choices[0]?.text ?? '';
    const validate = new Ajv().compile(SCHEMA);
    assert.ok(validate(JSON.parse(text)), `${text}: ${JSON.stringify(validate.errors)}`);
  });

  test('chat response_format through the openai SDK: json_schema output validates, json_object output is an object', async () => {
    const answers = await fixture.page.evaluate(async (schema) => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'unused',
        dangerouslyAllowBrowser: true,
      });
      const messages = [{ role: 'user' as const, content: 'a' }];
      const strict = await client.chat.completions.create({
        model: 'inpage-test',
        messages,
        max_tokens: 1500,
        temperature: 0,
        response_format: { type: 'json_schema', json_schema: { name: 'thing', schema, strict: true } },
      });
      const object = await client.chat.completions.create({
        model: 'inpage-test',
        messages,
        max_tokens: 600,
        temperature: 0,
        response_format: { type: 'json_object' },
      });
      return [strict.choices[0]?.message.content ?? '', object.choices[0]?.message.content ?? ''];
    }, SCHEMA);
    const validate = new Ajv().compile(SCHEMA);
    assert.ok(validate(JSON.parse(answers[0] ?? '')), `${answers[0]}: ${JSON.stringify(validate.errors)}`);
    // json_object allows any object, and this model prefers ',' to '}' (ties go to the lower byte),
    // so it never closes: what it writes within max_tokens is an object's start, members and all.
    assert.match(answers[1] ?? '', /^\{\s*""\s*:\s*""\s*,/);
  });

  test('bad constraints are 400s naming the parameter; two at once is a 400', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ grammar: 'root ::= "x' }, 'grammar'],
      [{ regex: '(a' }, 'regex'],
      [{ guided_choice: [] }, 'guided_choice'],
      [{ json_schema: { type: 'object', not: {} } }, 'json_schema'],
      // Two at once: the second in reading order (grammar, then regex) is named.
      [{ regex: 'a', grammar: 'root ::= "a"' }, 'regex'],
    ];
    for (const [fields, param] of cases) {
      const response = await complete({ prompt: 'a', ...fields });
      assert.equal(response.status, 400, JSON.stringify(fields));
      assert.match(
        String((response.body as ErrorBody).error.param),
        new RegExp(`^${param}`),
        JSON.stringify(response.body),
      );
    }
    const after = await complete({ prompt: 'abc', max_tokens: 3 });
    assert.equal((after.body as Completion).choices[0]?.text, 'def', 'the engine still answers');
  });
});
