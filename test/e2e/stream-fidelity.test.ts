/**
 * What a stream owes its reader beyond the right text: a refusal before any header, chunks as
 * soon as they are safe, the documented `usage: null`, and progress that never goes back
 * (issue 21, item 7: first seen on WebLLM; specified here on the llamacpp backend).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { usePage } from './page-fixture';
import { streamFromPage } from './page-helpers';

const fixture = usePage();

/** Far over the 4,096-token context of `inpage-test` (one token per byte). */
const LONG = 'hello '.repeat(3000);

type Endpoint = 'chat' | 'responses' | 'completions';

/** How an SDK call with `body` failed: while creating it (an HTTP error status) or while reading it. */
function failure(endpoint: Endpoint, stream: boolean) {
  return fixture.page.evaluate(
    async ({ endpoint, stream, long }) => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'unused',
        dangerouslyAllowBrowser: true,
      });
      let phase = 'create';
      try {
        const model = 'inpage-test';
        const made =
          endpoint === 'chat'
            ? client.chat.completions.create({
                model,
                messages: [{ role: 'user', content: long }],
                max_tokens: 4,
                stream,
              })
            : endpoint === 'responses'
              ? client.responses.create({ model, input: long, max_output_tokens: 4, stream })
              : client.completions.create({ model, prompt: long, max_tokens: 4, stream });
        const answer: unknown = await made;
        phase = 'read';
        if (answer && typeof answer === 'object' && Symbol.asyncIterator in answer)
          for await (const _ of answer as AsyncIterable<unknown>);
        return { phase: 'none', status: null, code: null };
      } catch (error) {
        const { status, code } = error as { status?: number; code?: string };
        return { phase, status: status ?? null, code: code ?? null };
      }
    },
    { endpoint, stream, long: LONG },
  );
}

describe('a prompt over the context is refused before any header, streamed or not', () => {
  for (const endpoint of ['chat', 'responses', 'completions'] as const) {
    test(`${endpoint}: 400 context_length_exceeded from create(), with and without stream`, async () => {
      for (const stream of [true, false]) {
        assert.deepEqual(
          await failure(endpoint, stream),
          { phase: 'create', status: 400, code: 'context_length_exceeded' },
          `stream: ${stream}`,
        );
      }
    });
  }

  test("completions the engine refuses (past the SW's bound on the prompt's bytes): 400, also with echo", async () => {
    // 5,000 bytes are at least 1,250 tokens by the SW's bound (tokens of up to 4 bytes): the engine counts 5,000.
    for (const extra of [{}, { echo: true }]) {
      const result = await fixture.page.evaluate(async (extra) => {
        const client = new window.OpenAI({
          baseURL: location.origin + '/v1',
          apiKey: 'unused',
          dangerouslyAllowBrowser: true,
        });
        const body = { model: 'inpage-test', prompt: 'x'.repeat(5000), max_tokens: 4, stream: true as const, ...extra };
        let phase = 'create';
        try {
          const stream = await client.completions.create(body);
          phase = 'read';
          for await (const _ of stream);
          return { phase: 'none', status: null, code: null, message: '' };
        } catch (error) {
          const { status, code, message } = error as { status?: number; code?: string; message: string };
          return { phase, status: status ?? null, code: code ?? null, message };
        }
      }, extra);
      assert.deepEqual(
        { ...result, message: undefined },
        { phase: 'create', status: 400, code: 'context_length_exceeded', message: undefined },
        JSON.stringify(extra),
      );
      assert.doesNotMatch(result.message, /at least \d+ tokens/, 'refused by the engine, not by the SW');
    }
  });

  test('the raw streamed chat answer is a 400 JSON body, not a 200 event stream', async () => {
    const raw = await fixture.page.evaluate(async (long) => {
      const response = await fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'inpage-test', messages: [{ role: 'user', content: long }], stream: true }),
      });
      return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
    }, LONG);
    assert.equal(raw.status, 400);
    assert.match(raw.type ?? '', /application\/json/);
    assert.equal(raw.body.error.code, 'context_length_exceeded');
  });

  test('the engine is free afterwards: a short streamed chat answers', async () => {
    const text = (await chatDeltas({ max_tokens: 3 })).join('');
    assert.equal(text, 'def');
  });
});

interface Piece {
  text: string;
  tokens: string[] | null;
}

/** The streamed completion's non-empty pieces, in order, with the tokens each chunk's logprobs name. */
function completionPieces(params: Record<string, unknown>): Promise<Piece[]> {
  return fixture.page.evaluate(async (params) => {
    const client = new window.OpenAI({
      baseURL: location.origin + '/v1',
      apiKey: 'unused',
      dangerouslyAllowBrowser: true,
    });
    const stream = await client.completions.create({ model: 'inpage-test', prompt: 'abc', ...params, stream: true });
    const pieces: Array<{ text: string; tokens: string[] | null }> = [];
    for await (const chunk of stream) {
      for (const choice of chunk.choices)
        if (choice.text || choice.logprobs?.tokens?.length)
          pieces.push({ text: choice.text, tokens: choice.logprobs?.tokens ?? null });
    }
    return pieces;
  }, params);
}

/** The streamed chat's non-empty content deltas for [user 'abc'] at temperature 0, in order. */
function chatDeltas(params: Record<string, unknown>): Promise<string[]> {
  return fixture.page.evaluate(async (params) => {
    const client = new window.OpenAI({
      baseURL: location.origin + '/v1',
      apiKey: 'unused',
      dangerouslyAllowBrowser: true,
    });
    const stream = await client.chat.completions.create({
      model: 'inpage-test',
      messages: [{ role: 'user', content: 'abc' }],
      temperature: 0,
      ...params,
      stream: true,
    });
    const deltas: string[] = [];
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta.content;
      if (content) deltas.push(content);
    }
    return deltas;
  }, params);
}

const one = (text: string, tokens: string[] | null = null): Piece => ({ text, tokens });

describe('stop strings hold back only a tail that could begin a stop', () => {
  const greedy = { max_tokens: 5, temperature: 0 };

  test("a stop that never begins streams 'd' 'e' 'f' 'g' 'h' as separate chunks, as without the stop", async () => {
    const plain = await completionPieces(greedy);
    assert.deepEqual(
      plain,
      ['d', 'e', 'f', 'g', 'h'].map((text) => one(text)),
    );
    assert.deepEqual(await completionPieces({ ...greedy, stop: ['ZZZZZZ'] }), plain);
    assert.deepEqual(await completionPieces({ ...greedy, stop: ['\nuser:', 'ZZZZZZ'] }), plain);
  });

  test('chat streams the same way', async () => {
    const deltas = await chatDeltas({ max_tokens: 5, stop: ['ZZZZZZ'] });
    assert.deepEqual(deltas, ['d', 'e', 'f', 'g', 'h']);
  });

  test('a tail that could begin a stop is held until it cannot, then released; a completed stop is cut', async () => {
    // 'fg' could begin 'fgX': held after 'e' until 'h' rules it out.
    const held = await completionPieces({ ...greedy, stop: ['fgX'] });
    assert.equal(held.map((piece) => piece.text).join(''), 'defgh');
    assert.deepEqual(held.slice(0, 2), [one('d'), one('e')]);
    const cut = await completionPieces({ ...greedy, stop: ['fgh'] });
    assert.deepEqual(cut, [one('d'), one('e')]);
  });

  test("with logprobs, each chunk carries one token's whole text and its entry", async () => {
    for (const stop of [['ZZZZZZ'], ['fgX'], ['efgX', 'hZ']]) {
      const pieces = await completionPieces({ ...greedy, stop, logprobs: 1 });
      assert.deepEqual(
        pieces,
        ['d', 'e', 'f', 'g', 'h'].map((text) => one(text, [text])),
        JSON.stringify(stop),
      );
    }
  });
});

describe('completions chunks with stream_options.include_usage', () => {
  test('every chunk has "usage": null, and the last (choices []) the usage', async () => {
    const result = await streamFromPage(fixture.page, {
      model: 'inpage-test',
      prompt: 'abc',
      max_tokens: 3,
      temperature: 0,
      n: 2,
      stream: true,
      stream_options: { include_usage: true },
    });
    assert.equal(result.status, 200);
    assert.ok(result.done);
    const last = result.events.at(-1);
    assert.deepEqual(last?.choices, []);
    // The prefix cache may hold the prompt from an earlier test: prompt_tokens_details says what it reused.
    assert.deepEqual(
      { ...(last?.usage as object), prompt_tokens_details: undefined },
      {
        prompt_tokens: 3,
        completion_tokens: 6,
        total_tokens: 9,
        prompt_tokens_details: undefined,
      },
    );
    const rest = result.events.slice(0, -1);
    assert.ok(rest.length >= 8, 'text and finish chunks of both choices');
    for (const event of rest) assert.ok('usage' in event && event.usage === null, JSON.stringify(event));
  });

  test('without it, chunks have no usage field', async () => {
    const result = await streamFromPage(fixture.page, {
      model: 'inpage-test',
      prompt: 'abc',
      max_tokens: 3,
      stream: true,
    });
    assert.ok(result.events.length > 0);
    assert.ok(result.events.every((event) => !('usage' in event)));
  });
});

describe('load progress', () => {
  test('within each phase the fraction is a number in 0..1 or null (indeterminate), and never goes back', async () => {
    const progress = await fixture.page.evaluate(() => window.inpageProgress);
    assert.ok(progress.length > 0);
    assert.equal(progress.at(-1)?.phase, 'ready');
    assert.equal(progress.at(-1)?.fraction, 1);
    let last = { phase: '', fraction: 0 };
    for (const report of progress) {
      const { phase, fraction } = report;
      assert.ok(fraction === null || (fraction >= 0 && fraction <= 1), JSON.stringify(report));
      if (phase !== last.phase) last = { phase, fraction: 0 };
      if (fraction === null) continue;
      assert.ok(fraction >= last.fraction, `${JSON.stringify(report)} after ${last.fraction}`);
      last.fraction = fraction;
    }
  });
});
