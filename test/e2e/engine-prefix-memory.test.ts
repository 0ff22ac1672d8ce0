/**
 * Prefix reuse where the memory does not keep a cell per position for good, through `LlamaWasm`
 * in Node on the committed single-threaded SIMD128 build.
 * - A recurrent state: `inpage-test-mamba` (llama.cpp's `mamba`, one state per sequence) and
 *   `inpage-test-lfm2` (an LFM2: a short convolution's state beside an attention block's KV
 *   cache, as Granite 4 H and Qwen3-Next have). Such a memory cannot drop its last tokens. A
 *   prompt that shares only a prefix with the cached one is read again from its start (it
 *   failed: `llama_decode failed on the prompt`, the state being past the prefix), the same
 *   prompt again too, and one that extends the cached one continues from the state; each answers
 *   as a fresh engine does and as Debian's llama-server 0.7.0 does (greedy, 8 tokens: the same
 *   tokens, logprobs within 1e-3). The engine says it cannot take back drafts (`partialRemoval`
 *   false), so no request drafts there.
 * - A sliding window: `inpage-test-swa` (a window of 16). Its layers' cache holds the window and a
 *   batch (768 cells; native/load.cpp). After a 1,000-token prompt, one that shares its first 100
 *   tokens is read again from its start (their window is gone), and one that extends it keeps it;
 *   each answers as a fresh engine.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildInpageTestLfm2Model } from '../fixtures/inpage-test-lfm2';
import { buildInpageTestMambaModel } from '../fixtures/inpage-test-mamba';
import { buildInpageTestSwaModel } from '../fixtures/inpage-test-swa';
import { useEngineWasm } from './engine-wasm-server';
import { placeModel, serverSkip, startLlamaServer } from './llama-server';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

Object.assign(globalThis, { __INPAGE_TEST_HOOKS__: false });
const { LlamaWasm } = await import('../../worker/engine/backends/llamacpp/llama-wasm');
type Engine = Awaited<ReturnType<typeof LlamaWasm.start>>;

const wasm = useEngineWasm();

const MODEL = buildInpageTestMambaModel();

async function engineWith(model: Uint8Array<ArrayBuffer> = MODEL): Promise<Engine> {
  const engine = await LlamaWasm.start({ wasm: wasm.url(), loader: null, pthreads: false });
  await engine.load([{ name: 'model.gguf', blob: new Blob([model]) }], 4096, { prefill: 1, decode: 1 }, 512);
  return engine;
}

interface Answer {
  tokens: number[];
  logprobs: number[];
  /** The prompt's tokens kept from the cache. */
  kept: number;
}

/** Greedy, 8 tokens after `ids`, the cache reused where it can be; each generated token decoded. */
function answer(engine: Engine, ids: number[]): Promise<Answer> {
  return engine.exclusive(async () => {
    const kept = await engine.begin(ids, true);
    while (((await engine.prefill(512)) ?? 1) > 0);
    engine.sampler({ temperature: 0 });
    const tokens: number[] = [];
    const logprobs: number[] = [];
    for (let i = 0; i < 8; i++) {
      const token = await engine.sample(1, false);
      tokens.push(token.id);
      logprobs.push(token.logprob);
      engine.accept(token.id);
      assert.ok(await engine.push(token.id));
    }
    return { tokens, logprobs, kept };
  });
}

function assertSame(actual: Omit<Answer, 'kept'>, expected: Omit<Answer, 'kept'>, label: string): void {
  assert.deepEqual(actual.tokens, expected.tokens, label);
  actual.logprobs.forEach((logprob, i) => {
    const want = expected.logprobs[i] ?? NaN;
    assert.ok(Math.abs(logprob - want) < 1e-3, `${label}, token ${i}: ${logprob} vs ${want}`);
  });
}

/** `n` lowercase letters (byte ids), a pattern of its own per `step`. */
const letters = (n: number, step: number) => Array.from({ length: n }, (_, i) => 97 + ((i * step + 7) % 26));

const FIRST = letters(300, 3);
const SHARES_A_PREFIX = [...FIRST.slice(0, 100), ...letters(20, 5)];

/** Models whose memory holds a recurrent state: all of it (Mamba), or beside a KV cache (LFM2). */
const RECURRENT = {
  'inpage-test-mamba (recurrent)': MODEL,
  'inpage-test-lfm2 (hybrid: a short convolution block, an attention block)': buildInpageTestLfm2Model(),
};

for (const [label, model] of Object.entries(RECURRENT))
  describe(`prefix reuse on ${label}`, () => {
    test('the engine says its memory cannot drop the last tokens (no drafts)', async () => {
      assert.equal((await engineWith(model)).info().partialRemoval, false);
    });

    test('a prompt sharing only a prefix reads again from its start; one extending the cache continues its state; each as a fresh engine', async () => {
      const engine = await engineWith(model);
      const first = await answer(engine, FIRST);
      const prefixOnly = await answer(engine, SHARES_A_PREFIX);
      assert.equal(prefixOnly.kept, 0, 'a state past the shared prefix cannot be reused');
      assertSame(prefixOnly, await answer(await engineWith(model), SHARES_A_PREFIX), 'a shared prefix');
      // The conversation goes on: the cache holds SHARES_A_PREFIX and its 8 tokens, all kept.
      const extended = [...SHARES_A_PREFIX, ...prefixOnly.tokens, ...letters(10, 7)];
      const next = await answer(engine, extended);
      assert.equal(next.kept, SHARES_A_PREFIX.length + 8);
      assertSame(next, await answer(await engineWith(model), extended), 'an extended prompt');
      const again = await answer(engine, extended);
      assert.equal(again.kept, 0, 'the same prompt again: the state is past its last token');
      assertSame(again, next, 'the same prompt again');
      assert.notDeepEqual(first.tokens, prefixOnly.tokens);
    });

    test("the same requests give llama-server's tokens", { skip: skip ?? false }, async () => {
      placeModel('engine-prefix-memory', model);
      const llama = await startLlamaServer({ model: 'engine-prefix-memory' });
      try {
        const native = async (prompt: number[]) => {
          const response = await fetch(`${llama.baseURL.replace(/\/v1$/, '')}/completion`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ prompt, temperature: 0, n_predict: 8, n_probs: 1, return_tokens: true, id_slot: 0 }),
          });
          const body = (await response.json()) as {
            tokens: number[];
            completion_probabilities: Array<{ logprob: number }>;
          };
          assert.equal(response.status, 200, JSON.stringify(body));
          return { tokens: body.tokens, logprobs: body.completion_probabilities.map((p) => p.logprob) };
        };
        const engine = await engineWith(model);
        for (const [step, prompt] of [
          ['first', FIRST],
          ['a shared prefix', SHARES_A_PREFIX],
          ['the first again', FIRST],
        ] as const)
          assertSame(await answer(engine, [...prompt]), await native([...prompt]), step);
      } finally {
        await llama.stop();
      }
    });
  });

describe('prefix reuse on a sliding-window model (inpage-test-swa)', () => {
  test('after 1,000 tokens, a prompt sharing the first 100 is read again (their window is gone), one extending them keeps them; each as a fresh engine', async () => {
    const model = buildInpageTestSwaModel();
    const engine = await engineWith(model);
    assert.equal(engine.info().partialRemoval, true);
    const long = letters(1000, 3);
    const first = await answer(engine, long);
    const shared = [...long.slice(0, 100), ...letters(20, 5)];
    const reread = await answer(engine, shared);
    assert.equal(reread.kept, 0, 'the cache keeps the last 16 + 512 positions (768 cells), not the first 100');
    assertSame(reread, await answer(await engineWith(model), shared), 'a shared prefix');
    const extended = [...long, ...first.tokens, ...letters(20, 5)];
    await answer(engine, long);
    const next = await answer(engine, extended);
    assert.equal(next.kept, long.length + 8);
    assertSame(next, await answer(await engineWith(model), extended), 'an extended prompt');
  });
});
