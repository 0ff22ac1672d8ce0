/**
 * The context's end, against Debian's native `llama-server` 0.7.0 at the same `n_ctx`: a
 * generation stops where prompt + completion = n_ctx (`finish_reason: "length"`, Anthropic's
 * `stop_reason: "max_tokens"`, `/infill`'s `stop_type: "limit"` with `truncated`), on every
 * route, streamed and not, with `n: 2` (each choice as llama-server's), with `max_tokens` far
 * above the room or left out; a prompt one token short of the context gets one token, one that
 * fills it is a 400 on both. The page's models are loaded with `contextLength: 256`; the
 * server runs 2 slots of 256 (`-c 512`). Part of the llama-server differential: skipped, with
 * what is missing, where the server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { placeModel, serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { askBoth, dataFrames, pick, type Json } from './llama-server-compare';
import { usePage } from './page-fixture';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const CTX = 256;
/** `a b` is 3 tokens on `inpage-test` (one per byte, no BOS). */
const ROOM = CTX - 3;
const MODEL = 'inpage-test-256';
const FIM_MODEL = 'inpage-test-fim-256';
const DIR = 'dist/test-context-end';
const fixture = usePage();
const native: { plain?: LlamaServer; fim?: LlamaServer } = {};

const server = (which: 'plain' | 'fim') => {
  const found = native[which];
  if (!found) throw new Error('llama-server starts in before()');
  return found;
};
const both = (path: string, body: Json, model = MODEL, which: 'plain' | 'fim' = 'plain') =>
  askBoth(fixture.page, server(which), 'POST', path, body, model);

interface Choice {
  text: string;
  finish: unknown;
}

/** Each choice's text and finish reason by index, from an OpenAI-shaped body or stream (`read`: a choice's text). */
function choicesOf(answer: unknown, streamedText: string | null, read: (choice: Json) => unknown): Choice[] {
  const choices: Choice[] = [];
  const bodies = streamedText === null ? [answer as Json] : dataFrames(streamedText);
  for (const body of bodies)
    for (const raw of (body.choices as Json[] | undefined) ?? []) {
      const index = raw.index as number;
      choices[index] ??= { text: '', finish: null };
      const slot = choices[index];
      slot.text += String(read(raw) ?? '');
      if (raw.finish_reason) slot.finish = raw.finish_reason;
    }
  return choices;
}

/** The usage of an OpenAI-shaped body, or of the stream's last frame that has one. */
const usageOf = (answer: unknown, streamedText: string | null) =>
  (streamedText === null
    ? (answer as Json)
    : dataFrames(streamedText)
        .filter((frame) => frame.usage)
        .at(-1)
  )?.usage as Json | undefined;

describe("the context's end against native llama-server at the same n_ctx", { skip: skip ?? false }, () => {
  before(async () => {
    const fimModel = buildInpageTestModel({ fim: true });
    placeModel('inpage-test-fim', fimModel);
    await mkdir(DIR, { recursive: true });
    await writeFile(`${DIR}/inpage-test-fim.gguf`, fimModel);
    const [plain, fim] = await Promise.all([
      startLlamaServer({ args: ['-c', String(2 * CTX)] }),
      startLlamaServer({ model: 'inpage-test-fim', args: ['-c', String(2 * CTX)] }),
    ]);
    Object.assign(native, { plain, fim });
    await fixture.page.evaluate(
      async ({ ctx, url, model, fimModel }) => {
        await window.inpage.load({ id: model, backend: 'llamacpp', source: { kind: 'builtin' }, contextLength: ctx });
        await window.inpage.load({
          id: fimModel,
          backend: 'llamacpp',
          source: { kind: 'url', url: new URL(url, location.href).href },
          contextLength: ctx,
        });
      },
      { ctx: CTX, url: `/${DIR.slice('dist/'.length)}/inpage-test-fim.gguf`, model: MODEL, fimModel: FIM_MODEL },
    );
  });
  after(async () => {
    await Promise.all([native.plain?.stop(), native.fim?.stop()]);
    await rm(DIR, { recursive: true, force: true });
  });

  // Legacy completions default to 16 tokens here (OpenAI's default; llama-server's is the
  // context): a limit is always named there. Chat's default is the context on both.
  const routes = [
    {
      path: '/v1/completions',
      body: { prompt: 'a b' },
      limits: [{ max_tokens: 20_000 }],
      read: (choice: Json) => choice.text,
    },
    {
      path: '/v1/chat/completions',
      body: { messages: [{ role: 'user', content: 'a b' }] },
      limits: [{ max_tokens: 20_000 }, {}],
      read: (choice: Json) => ((choice.message ?? choice.delta) as Json | undefined)?.content,
    },
  ];
  for (const { path, body, limits, read } of routes) {
    test(`${path}: n=2, each choice stops at prompt + completion = n_ctx, streamed and not`, async () => {
      for (const limit of limits)
        for (const stream of [false, true]) {
          const request = {
            ...body,
            ...limit,
            n: 2,
            temperature: 0,
            ...(stream ? { stream, stream_options: { include_usage: true } } : {}),
          };
          const label = `${path} ${JSON.stringify(request)}`;
          const answer = await both(path, request);
          assert.equal(answer.own.status, 200, `${label}: ${answer.ownText.slice(0, 300)}`);
          assert.equal(answer.native.status, 200, label);
          const own = choicesOf(answer.own.body, stream ? answer.ownText : null, read);
          const theirs = choicesOf(answer.native.body, stream ? answer.nativeText : null, read);
          assert.deepEqual(own, theirs, label);
          assert.deepEqual(
            own.map((choice) => [choice.text.length, choice.finish]),
            [
              [ROOM, 'length'],
              [ROOM, 'length'],
            ],
            label,
          );
          // llama-server's usage counts one choice's tokens (253 with n=2); OpenAI's counts every choice.
          assert.deepEqual(
            pick(usageOf(answer.native.body, stream ? answer.nativeText : null), [
              'prompt_tokens',
              'completion_tokens',
            ]),
            {
              prompt_tokens: 3,
              completion_tokens: ROOM,
            },
          );
          assert.deepEqual(
            pick(usageOf(answer.own.body, stream ? answer.ownText : null), ['prompt_tokens', 'completion_tokens']),
            {
              prompt_tokens: 3,
              completion_tokens: 2 * ROOM,
            },
          );
        }
    });
  }

  test('/v1/completions: a prompt one token short of n_ctx gets one token; one that fills it is a 400 on both', async () => {
    const short = await both('/v1/completions', { prompt: 'x'.repeat(CTX - 1), max_tokens: 5, temperature: 0 });
    const [own, theirs] = [short.own.body, short.native.body].map((body) => ({
      ...pick((body as { choices: Json[] }).choices[0], ['text', 'finish_reason']),
      ...pick((body as { usage: Json }).usage, ['prompt_tokens', 'completion_tokens']),
    }));
    assert.deepEqual(own, theirs);
    assert.deepEqual(own, { text: 'y', finish_reason: 'length', prompt_tokens: CTX - 1, completion_tokens: 1 });
    for (const stream of [false, true]) {
      const full = await both('/v1/completions', { prompt: 'x'.repeat(CTX), max_tokens: 5, temperature: 0, stream });
      assert.deepEqual([full.own.status, full.native.status], [400, 400], full.ownText.slice(0, 300));
      assert.equal((full.own.body as { error: Json }).error.code, 'context_length_exceeded');
    }
  });

  test('/v1/responses: the output stops at n_ctx, as llama-server has it (status incomplete here, as OpenAI says)', async () => {
    const request = { input: 'a b', max_output_tokens: 20_000, temperature: 0 };
    const answer = await both('/v1/responses', request);
    assert.equal(answer.own.status, 200, answer.ownText.slice(0, 300));
    const text = (body: unknown) =>
      ((body as { output: Array<{ content?: Json[] }> }).output.find((item) => item.content)?.content ?? [])
        .map((part) => part.text)
        .join('');
    assert.equal(text(answer.own.body), text(answer.native.body));
    assert.equal(text(answer.own.body).length, ROOM);
    const keys = ['input_tokens', 'output_tokens', 'total_tokens'];
    assert.deepEqual(pick((answer.own.body as Json).usage, keys), pick((answer.native.body as Json).usage, keys));
    assert.deepEqual(pick(answer.own.body, ['status', 'incomplete_details']), {
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    });
  });

  test('/v1/messages: stop_reason max_tokens at n_ctx, streamed and not', async () => {
    for (const stream of [false, true]) {
      const request = { messages: [{ role: 'user', content: 'a b' }], max_tokens: 20_000, temperature: 0, stream };
      const answer = await both('/v1/messages', request);
      assert.equal(answer.own.status, 200, answer.ownText.slice(0, 300));
      const summary = (body: unknown, text: string) => {
        if (!stream) {
          const message = body as { content: Json[]; stop_reason: unknown; usage: Json };
          return {
            text: message.content.map((part) => part.text).join(''),
            stop_reason: message.stop_reason,
            output_tokens: message.usage.output_tokens,
          };
        }
        const events = dataFrames(text);
        const delta = events.find((event) => event.type === 'message_delta') as { delta: Json; usage: Json };
        return {
          text: events.map((event) => (event.delta as Json | undefined)?.text ?? '').join(''),
          stop_reason: delta.delta.stop_reason,
          output_tokens: delta.usage.output_tokens,
        };
      };
      const own = summary(answer.own.body, answer.ownText);
      assert.deepEqual(own, summary(answer.native.body, answer.nativeText), `stream: ${stream}`);
      assert.deepEqual([own.text.length, own.stop_reason], [ROOM, 'max_tokens']);
    }
  });

  test('/infill: stop_type limit and truncated where the context ends, not where n_predict does', async () => {
    // prefix, suffix and middle tokens around ab / yz: 7 prompt tokens, room for 249.
    const fields = ['content', 'tokens_predicted', 'tokens_evaluated', 'stop_type', 'truncated'];
    for (const n_predict of [-1, 20_000, CTX - 7, CTX - 8])
      for (const stream of [false, true]) {
        const request = {
          input_prefix: 'ab',
          input_suffix: 'yz',
          n_predict,
          temperature: 0,
          cache_prompt: false,
          stream,
        };
        const answer = await both('/infill', request, FIM_MODEL, 'fim');
        assert.equal(answer.own.status, 200, answer.ownText.slice(0, 300));
        const summary = (body: unknown, text: string) => {
          if (!stream) return pick(body, fields);
          const frames = dataFrames(text);
          const last = frames.at(-1) ?? {};
          return { ...pick(last, fields), content: frames.map((frame) => frame.content).join('') };
        };
        const own = summary(answer.own.body, answer.ownText);
        assert.deepEqual(own, summary(answer.native.body, answer.nativeText), JSON.stringify(request));
        assert.equal(own.tokens_predicted, n_predict === CTX - 8 ? CTX - 8 : CTX - 7);
      }
  });

  test('/completion: stop_type limit and truncated where the context ends, as llama-server', async () => {
    // `a b` is 3 prompt tokens: room for 253.
    const fields = ['content', 'tokens_predicted', 'tokens_evaluated', 'stop_type', 'truncated'];
    for (const n_predict of [-1, 20_000, CTX - 3, CTX - 4])
      for (const stream of [false, true]) {
        const request = { prompt: 'a b', n_predict, temperature: 0, cache_prompt: false, stream };
        const answer = await both('/completion', request, MODEL, 'plain');
        assert.equal(answer.own.status, 200, answer.ownText.slice(0, 300));
        const summary = (body: unknown, text: string) => {
          if (!stream) return pick(body, fields);
          const frames = dataFrames(text);
          return { ...pick(frames.at(-1) ?? {}, fields), content: frames.map((frame) => frame.content).join('') };
        };
        const own = summary(answer.own.body, answer.ownText);
        assert.deepEqual(own, summary(answer.native.body, answer.nativeText), JSON.stringify(request));
        assert.equal(own.tokens_predicted, n_predict === CTX - 4 ? CTX - 4 : CTX - 3);
      }
  });
});

describe("the context's end inside a character, on inpage-test-qwen3 at n_ctx 256", { skip: skip ?? false }, () => {
  const QWEN3 = 'inpage-test-qwen3-256';
  let qwen3: LlamaServer | undefined;
  before(async () => {
    placeModel('inpage-test-qwen3', new Uint8Array(await readFile('dist/models/inpage-test-qwen3.gguf')));
    qwen3 = await startLlamaServer({ model: 'inpage-test-qwen3', args: ['-c', String(2 * CTX)] });
    await fixture.page.evaluate(
      ({ ctx, id }) =>
        window.inpage.load({
          id,
          backend: 'llamacpp',
          source: { kind: 'url', url: new URL('/models/inpage-test-qwen3.gguf', location.href).href },
          contextLength: ctx,
        }),
      { ctx: CTX, id: QWEN3 },
    );
  });
  after(() => qwen3?.stop());

  test('/completion: the content ends with the open character (U+FFFD), its tokens unreported, as llama-server', async () => {
    const server = qwen3;
    if (!server) throw new Error('llama-server starts in before()');
    // Token 64 is `a` (not a chain token): greedy writes the chain, whose 8th and 9th tokens end
    // inside 𝔸; a prompt of CTX - 8 or CTX - 9 tokens ends the generation there.
    const fields = ['content', 'tokens', 'tokens_predicted', 'tokens_evaluated', 'stop_type', 'truncated'];
    for (const room of [8, 9])
      for (const stream of [false, true]) {
        const request = {
          prompt: new Array<number>(CTX - room).fill(64),
          temperature: 0,
          cache_prompt: false,
          return_tokens: true,
          n_probs: 1,
          stream,
        };
        const answer = await askBoth(fixture.page, server, 'POST', '/completion', request, QWEN3);
        assert.equal(answer.own.status, 200, answer.ownText.slice(0, 300));
        const summary = (body: unknown, text: string): Json => {
          if (!stream) {
            const entries = (body as Json).completion_probabilities as Json[];
            return { ...pick(body, fields), entries: entries.map((entry) => [entry.id, entry.token]) };
          }
          const frames = dataFrames(text);
          return {
            ...pick(frames.at(-1) ?? {}, fields.slice(2)),
            content: frames.map((frame) => frame.content).join(''),
            tokens: frames.flatMap((frame) => frame.tokens as number[]),
          };
        };
        const own = summary(answer.own.body, answer.ownText);
        assert.deepEqual(own, summary(answer.native.body, answer.nativeText), `${room}, stream: ${stream}`);
        assert.deepEqual([own.stop_type, own.truncated, own.tokens_predicted], ['limit', true, room]);
        if (!stream) assert.match(String(own.content), /😀 \uFFFD$/u);
      }
  });
});

describe("the context's end at the default context (4,096), as the issue measured it", { skip: skip ?? false }, () => {
  test('/v1/completions: `a b` with max_tokens 20000 gets 4,093 tokens, as llama-server -c 4096 gives', async () => {
    const plain = await startLlamaServer();
    try {
      const request = { prompt: 'a b', max_tokens: 20_000, temperature: 0, model: 'inpage-test' };
      const answer = await askBoth(fixture.page, plain, 'POST', '/v1/completions', request);
      const summary = (body: unknown) => ({
        text: (body as { choices: Json[] }).choices[0]?.text,
        finish_reason: (body as { choices: Json[] }).choices[0]?.finish_reason,
        ...pick((body as { usage: Json }).usage, ['prompt_tokens', 'completion_tokens']),
      });
      const own = summary(answer.own.body);
      assert.deepEqual(own, summary(answer.native.body));
      assert.deepEqual(pick(own, ['prompt_tokens', 'completion_tokens']), {
        prompt_tokens: 3,
        completion_tokens: 4096 - 3,
      });
    } finally {
      await plain.stop();
    }
  });
});
