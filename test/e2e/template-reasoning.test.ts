/**
 * Reasoning in a template's own tags, against Debian's native `llama-server` 0.7.0: `inpage-test`
 * with Ministral 3's chat template, which writes its reasoning between `[THINK]` and `[/THINK]`
 * (llama-server reads it with its Ministral 3 parser). The answer's text is held by a grammar of
 * the request's own, so both write the same; each case's reasoning and content, streamed and not,
 * are llama-server's: the reasoning only where the answer starts with `[THINK]`, kept with all its
 * whitespace, and the content's leading whitespace dropped. Before, `[THINK]` stayed in the content.
 * Part of the llama-server differential: skipped, with what is missing, where the server's chroot
 * cannot be made.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { placeModel, serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { usePage } from './page-fixture';
import { sameAnswer } from './think-model';

const DIR = 'dist/test-models-template-reasoning';
const MODEL = 'inpage-test-ministral-think';
const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);
const fixture = usePage();

describe("reasoning in the template's own tags, against native llama-server", { skip: skip ?? false }, () => {
  let server: LlamaServer | undefined;
  before(async () => {
    const source = await readFile(
      'test/fixtures/chat-templates/mistralai-Ministral-3-14B-Reasoning-2512.jinja',
      'utf8',
    );
    const bytes = buildInpageTestModel({ chatTemplate: source });
    placeModel(MODEL, bytes);
    await mkdir(DIR, { recursive: true });
    await writeFile(`${DIR}/${MODEL}.gguf`, bytes);
    await fixture.page.evaluate((url) => window.inpage.load(url), `/${DIR.slice('dist/'.length)}/${MODEL}.gguf`);
    server = await startLlamaServer({ model: MODEL, args: ['--jinja'] });
  });
  after(async () => {
    await server?.stop();
    await rm(DIR, { recursive: true, force: true });
  });

  const cases: Array<[string, string, string, string]> = [
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
  ];
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
        const { own } = await sameAnswer(fixture.page, server, body, MODEL);
        assert.deepEqual([own.reasoning, own.content], [reasoning, content]);
      });
    }
  }
});
