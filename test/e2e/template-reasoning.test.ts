/**
 * Reasoning in a template's own tags, against Debian's native `llama-server` 0.7.0, on
 * `inpage-test` with a real model's chat template, each read by llama-server's own parser for it:
 * Ministral 3's `[THINK]…[/THINK]` (the reasoning only where the answer starts with `[THINK]`, kept
 * with all its whitespace, the content's leading whitespace dropped) and Gemma 4's
 * `<|channel>thought…<channel|>` (each block anywhere in the answer, the whitespace after
 * `thought` dropped, the content around the blocks joined as it comes). The answer's text is held
 * by a grammar of the request's own, so both write the same; each case's reasoning and content,
 * streamed and not, are llama-server's. Before, those tags stayed in the content. Part of the
 * llama-server differential: skipped, with what is missing, where the server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { placeModel, serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { usePage } from './page-fixture';
import { askBoth } from './llama-server-compare';
import { sameAnswer } from './think-model';

const DIR = 'dist/test-models-template-reasoning';
const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);
const fixture = usePage();

/** A case: its name, the answer's text, and the reasoning and content llama-server reads in it. */
type Case = [string, string, string, string];

const TEMPLATES: Array<{ model: string; template: string; cases: Case[] }> = [
  {
    model: 'inpage-test-ministral-think',
    template: 'mistralai-Ministral-3-14B-Reasoning-2512',
    cases: [
      [
        '[THINK] splits the reasoning out',
        '[THINK]\nLet me think.\n[/THINK]\n\nThe answer.',
        '\nLet me think.\n',
        'The answer.',
      ],
      [
        'the content after [/THINK] starts past all whitespace',
        '[THINK]A[/THINK]\n\n\n  The answer.  ',
        'A',
        'The answer.  ',
      ],
      ['[THINK] after text or whitespace is content', '  [THINK]x[/THINK]y', '', '[THINK]x[/THINK]y'],
      ['a reasoning of only whitespace is none', '[THINK] \n[/THINK]y', '', 'y'],
      ['the content keeps no leading whitespace', '\n\nHello', '', 'Hello'],
    ],
  },
  {
    model: 'inpage-test-gemma4-think',
    template: 'google-gemma-4-31B-it',
    cases: [
      [
        'a channel splits the reasoning out',
        '<|channel>thought\nLet me think.\n<channel|>The answer.',
        'Let me think.\n',
        'The answer.',
      ],
      ['the content after <channel|> keeps its whitespace', '<|channel>thought  A  <channel|>\n\nB', 'A  ', '\n\nB'],
      [
        'a channel after text or whitespace is reasoning too',
        '  Hi <|channel>thought x<channel|> there',
        'x',
        '  Hi  there',
      ],
      ['each channel is reasoning', 'a<|channel>thought x<channel|>b<|channel>thought y<channel|>c', 'xy', 'abc'],
      ['an empty channel is no reasoning', '<|channel>thought<channel|>y', '', 'y'],
    ],
  },
];

for (const { model, template, cases } of TEMPLATES) {
  describe(`reasoning in ${template}'s own tags, against native llama-server`, { skip: skip ?? false }, () => {
    let server: LlamaServer | undefined;
    before(async () => {
      const source = await readFile(`test/fixtures/chat-templates/${template}.jinja`, 'utf8');
      const bytes = buildInpageTestModel({ chatTemplate: source });
      placeModel(model, bytes);
      await mkdir(DIR, { recursive: true });
      await writeFile(`${DIR}/${model}.gguf`, bytes);
      await fixture.page.evaluate((url) => window.inpage.load(url), `/${DIR.slice('dist/'.length)}/${model}.gguf`);
      server = await startLlamaServer({ model, args: ['--jinja'] });
    });
    after(async () => {
      await server?.stop();
      await rm(DIR, { recursive: true, force: true });
    });

    for (const [name, text, reasoning, content] of cases) {
      for (const stream of [false, true]) {
        test(`${name}${stream ? ', streamed' : ''}`, async () => {
          if (!server) throw new Error('llama-server starts in before()');
          const body = {
            messages: [{ role: 'user', content: 'abc' }],
            grammar: `root ::= ${JSON.stringify(text)}`,
            temperature: 0,
            max_tokens: 100,
            stream,
          };
          const { own } = await sameAnswer(fixture.page, server, body, model);
          assert.deepEqual([own.reasoning, own.content], [reasoning, content]);
        });
      }
    }

    // Both templates' llama-server parsers want a response_format's JSON in a ```json fence.
    test('response_format: the JSON written in a fence, the content the JSON alone, as llama-server', async () => {
      if (!server) throw new Error('llama-server starts in before()');
      const schema = {
        type: 'object',
        properties: { a: { const: 'x' } },
        required: ['a'],
        additionalProperties: false,
      };
      const body = {
        messages: [{ role: 'user', content: 'abc' }],
        response_format: { type: 'json_schema', json_schema: { name: 'a', schema } },
        chat_template_kwargs: { enable_thinking: false },
        temperature: 0,
        logprobs: true,
        // The byte model writes all the whitespace a grammar allows (the two grammars' differ round the fence).
        max_tokens: 600,
      };
      const both = await askBoth(fixture.page, server, 'POST', '/v1/chat/completions', body, model);
      type Reply = {
        choices: Array<{ message: { content: string }; logprobs: { content: Array<{ token: string }> } }>;
      };
      const [own, native] = [both.own.body as Reply, both.native.body as Reply];
      assert.equal(both.own.status, 200, both.ownText);
      assert.deepEqual(JSON.parse(own.choices[0]?.message.content ?? ''), { a: 'x' });
      assert.deepEqual(JSON.parse(native.choices[0]?.message.content ?? ''), { a: 'x' });
      const written = (reply: Reply) =>
        (reply.choices[0]?.logprobs.content ?? [])
          .map((t) => t.token)
          .join('')
          .trim();
      for (const reply of [own, native])
        assert.ok(written(reply).startsWith('```json') && written(reply).endsWith('```'));
    });
  });
}
