/**
 * `logit_bias` in llama-server's forms as well as OpenAI's, against Debian's native llama-server
 * 0.7.0 on `inpage-test-qwen3` (Qwen3's tokenizer: `Hello, world` is three tokens): token ids and
 * texts as an object's keys or in `[token, bias]` pairs, `false` as a ban, on `/v1/completions`,
 * `/v1/chat/completions` and `/completion`, greedy: the same text as llama-server's. A text
 * stands for each token of its tokenization. They were 400s (only `{"id": bias}` was read).
 * Where llama-server skips an entry without a word (a bias past ±100, a `true`), ours is a 400.
 * Skipped, with what is missing, where the server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useBuiltModelServer } from './built-model-server';
import { serverSkip } from './llama-server';
import { askBoth, type Json } from './llama-server-compare';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const MODEL = 'inpage-test-qwen3';
const fixture = usePage();

/** The generated text of an answer on `path`. */
function textOf(path: string, body: unknown): string {
  const json = body as Json;
  if (path === '/completion') return String(json.content);
  const choice = (json.choices as Json[])[0] as Json;
  return String(path === '/v1/completions' ? choice.text : (choice.message as Json).content);
}

const bodyFor = (path: string, logit_bias: unknown): Json => {
  if (path === '/completion') return { prompt: 'x', n_predict: 8, temperature: 0, logit_bias };
  if (path === '/v1/completions') return { prompt: 'x', max_tokens: 8, temperature: 0, logit_bias };
  return { messages: [{ role: 'user', content: 'x' }], max_tokens: 8, temperature: 0, logit_bias };
};

describe("logit_bias in llama-server's forms, against native llama-server", { skip: skip ?? false }, () => {
  const built = useBuiltModelServer(fixture, MODEL);

  test('ids and texts, as keys or in pairs, false as a ban: the text llama-server writes', async () => {
    const { server } = built;
    const forms: unknown[] = [
      { '9707': -100 },
      { '9707': false },
      [[9707, false]],
      { Hello: false },
      [['Hello', false]],
      // Three tokens, each banned.
      [['Hello, world', false]],
      { ' world': -100, '0': false },
      // Pairs on one token add up.
      [
        [9707, -60],
        ['Hello', -60],
      ],
    ];
    const texts: string[] = [];
    for (const path of ['/v1/completions', '/v1/chat/completions', '/completion'])
      for (const bias of forms) {
        const answer = await askBoth(fixture.page, server, 'POST', path, bodyFor(path, bias), MODEL);
        const label = `${path} ${JSON.stringify(bias)}`;
        assert.equal(answer.own.status, 200, `${label}: ${answer.ownText}`);
        assert.equal(answer.native.status, 200, `${label}: ${answer.nativeText}`);
        assert.equal(textOf(path, answer.own.body), textOf(path, answer.native.body), label);
        texts.push(textOf(path, answer.own.body));
      }
    // Every form took effect: the chain starts `Hello, world!`; each ban of Hello (all but the
    // seventh form) leaves it out, and the seventh (` world` and `!` banned) keeps `Hello,` only.
    for (const [i, text] of texts.entries())
      if (i % forms.length !== 6) assert.ok(!text.startsWith('Hello'), `${i}: ${text}`);
      else assert.ok(text.startsWith('Hello,') && !text.includes('world'), `${i}: ${text}`);
  });

  test('what llama-server skips without a word is a 400 naming logit_bias here', async () => {
    for (const bias of [{ '9707': 101 }, { '9707': true }, [[9707, 1, 2]], [[-1, 1]], { '': 1 }]) {
      const answer = await postFromPage(fixture.page, '/v1/completions', {
        ...bodyFor('/v1/completions', bias),
        model: MODEL,
      });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(((answer.body as Json).error as Json).param, 'logit_bias', JSON.stringify(bias));
    }
  });
});
