/**
 * llama-server's resumable streams against Debian's native `llama-server` 0.7.0: a streamed
 * completion sent with `X-Conversation-Id` is answered again by `GET /v1/stream` (whole, or from a
 * byte offset), runs on to its end after its client went away, is listed by
 * `POST /v1/streams/lookup` and stopped by `DELETE /v1/stream`; the refusals are llama-server's,
 * word for word. Part of the llama-server differential: skipped, with what is missing, where the
 * server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { askBoth, type Json } from './llama-server-compare';
import { usePage } from './page-fixture';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const fixture = usePage();

interface Run {
  status: number;
  /** The stream as the client read it (cut where it aborted). */
  streamed: string;
  /** `GET /v1/stream` afterwards, from `from`. */
  replayed: string;
  replayStatus: number;
  lookup: unknown;
}

/**
 * Streams a completion under conversation `conv` from `base`, aborting after the first chunk when
 * `abort`; then reads `GET /v1/stream` from `from` to its end, and the lookup of `conv`.
 * Self-contained: it runs in the page too.
 */
async function converse(args: {
  base: string;
  conv: string;
  body: Record<string, unknown>;
  abort: boolean;
  from: number;
}): Promise<Run> {
  const controller = new AbortController();
  const response = await fetch(`${args.base}/v1/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-conversation-id': args.conv },
    body: JSON.stringify({ ...args.body, stream: true }),
    signal: controller.signal,
  });
  if (!response.body) throw new Error(`the stream answered ${response.status} without a body`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let streamed = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      streamed += value;
      if (args.abort) {
        controller.abort();
        break;
      }
    }
  } catch {
    // aborted
  }
  const replay = await fetch(`${args.base}/v1/stream?conv_id=${encodeURIComponent(args.conv)}&from=${args.from}`);
  const replayed = await replay.text();
  const lookup = await fetch(`${args.base}/v1/streams/lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ conversation_ids: [args.conv, 'never-seen'] }),
  });
  return { status: response.status, streamed, replayed, replayStatus: replay.status, lookup: await lookup.json() };
}

/**
 * Streams a long completion under conversation `conv` from `base`; after its first chunk, sends
 * a non-streamed one under the same id. The bytes the stream still gave, that request's status,
 * and `GET /v1/stream` of `conv` afterwards. Self-contained: it runs in the page too.
 */
async function replaceWithJson(args: { base: string; conv: string; model: string }) {
  const post = (stream: boolean, max_tokens: number) =>
    fetch(`${args.base}/v1/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-conversation-id': args.conv },
      body: JSON.stringify({ model: args.model, prompt: 'abc', max_tokens, temperature: 0, stream }),
    });
  const reader = (await post(true, 100000)).body?.getReader();
  await reader?.read();
  const json = await post(false, 2);
  let rest = 0;
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    rest += next.value.length;
  }
  const replay = await fetch(`${args.base}/v1/stream?conv_id=${args.conv}`);
  return { json: json.status, rest, replay: replay.status };
}

/** The completion's text in a stream's frames. */
const textOf = (sse: string) =>
  sse
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => String(((JSON.parse(line.slice(6)) as Json).choices as Json[])[0]?.text ?? ''))
    .join('');

describe('resumable streams against native llama-server', { skip: skip ?? false }, () => {
  let server: LlamaServer;
  let base = '';
  before(async () => {
    server = await startLlamaServer();
    base = `http://127.0.0.1:${server.port}`;
  });
  after(() => server?.stop());

  test('a finished stream is answered again, whole and from an offset, and listed', async () => {
    const body = { model: 'inpage-test', prompt: 'abc', max_tokens: 8, temperature: 0 };
    for (const from of [0, 7]) {
      const conv = `finished-${from}`;
      const native = await converse({ base, conv, body, abort: false, from });
      const own = await fixture.page.evaluate(converse, { base: '', conv, body, abort: false, from });
      for (const run of [native, own]) {
        assert.equal(run.replayStatus, 200);
        assert.equal(run.replayed, run.streamed.slice(from));
        assert.ok(run.streamed.endsWith('data: [DONE]\n\n'));
        assert.equal(textOf(run.streamed), 'defghijk');
        const [entry, ...rest] = run.lookup as Json[];
        assert.deepEqual(rest, []);
        assert.deepEqual(Object.keys(entry ?? {}).sort(), [
          'completed_at',
          'conversation_id',
          'is_done',
          'started_at',
          'total_bytes',
        ]);
        assert.deepEqual(
          [entry?.conversation_id, entry?.is_done, entry?.total_bytes],
          [conv, true, run.streamed.length],
        );
      }
    }
  });

  test('a stream whose client went away runs on to its end, and is read again from the start', async () => {
    const body = { model: 'inpage-test', prompt: 'abc', max_tokens: 600, temperature: 0 };
    const native = await converse({ base, conv: 'left', body, abort: true, from: 0 });
    const own = await fixture.page.evaluate(converse, { base: '', conv: 'left', body, abort: true, from: 0 });
    for (const run of [native, own]) {
      assert.ok(run.streamed.length < run.replayed.length);
      assert.ok(run.replayed.startsWith(run.streamed));
      assert.ok(run.replayed.endsWith('data: [DONE]\n\n'));
      assert.equal(textOf(run.replayed).length, 600);
    }
  });

  test('a request without stream under the same id stops the running stream and leaves none, as on llama-server', async () => {
    const native = await replaceWithJson({ base, conv: 'replaced', model: 'inpage-test' });
    const own = await fixture.page.evaluate(replaceWithJson, { base: '', conv: 'replaced', model: 'inpage-test' });
    for (const run of [native, own]) {
      assert.deepEqual([run.json, run.replay], [200, 404]);
      // Stopped at once: far fewer frames (~150 bytes each) than the 4,096 tokens of the context.
      assert.ok(run.rest < 150 * 1000, String(run.rest));
    }
  });

  test('DELETE /v1/stream stops a running stream and forgets it; the refusals are llama-server’s', async () => {
    const start = (where: string) =>
      fixture.page.evaluate(
        async ({ where }) => {
          const response = await fetch(`${where}/v1/completions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-conversation-id': 'stopped' },
            body: JSON.stringify({
              model: 'inpage-test',
              prompt: 'abc',
              max_tokens: 100000,
              temperature: 0,
              stream: true,
            }),
          });
          const reader = response.body?.getReader();
          await reader?.read();
          const stop = await fetch(`${where}/v1/stream?conv_id=stopped`, { method: 'DELETE' });
          let rest = 0;
          for (;;) {
            const next = await reader?.read();
            if (!next || next.done) break;
            rest += next.value.length;
          }
          const replay = await fetch(`${where}/v1/stream?conv_id=stopped`);
          return { stop: stop.status, rest, replay: replay.status };
        },
        { where },
      );
    const own = await start('');
    assert.deepEqual([own.stop, own.replay], [204, 404]);
    // Stopped at once: far fewer frames (~150 bytes each) than the 4,096 tokens of the context.
    assert.ok(own.rest < 150 * 1000, String(own.rest));
    for (const path of [
      '/v1/stream',
      '/v1/stream?conv_id=nope',
      '/v1/stream?conv_id=finished-0&from=x',
      '/v1/stream?conv_id=finished-0&from=-1',
      '/v1/stream?conv_id=finished-0&from=99999',
    ]) {
      const both = await askBoth(fixture.page, server, 'GET', path);
      assert.equal(both.own.status, both.native.status, both.ownText);
      assert.deepEqual(both.own.body, both.native.body);
    }
    const lookup = await askBoth(fixture.page, server, 'POST', '/v1/streams/lookup', { conversation_ids: [] });
    assert.deepEqual([lookup.own.body, lookup.native.body], [[], []]);
  });
});
