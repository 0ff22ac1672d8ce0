/**
 * Prefix reuse where the memory does not keep a cell per position for good, through `LlamaWasm`
 * in Node on the committed single-threaded SIMD128 build.
 * - A recurrent state: `inpage-test-mamba` (llama.cpp's `mamba`, one state per sequence) and
 *   `inpage-test-lfm2` (an LFM2: a short convolution's state beside an attention block's KV
 *   cache, as Granite 4 H and Qwen3-Next have). Such a memory cannot drop its last tokens. A
 *   prompt that shares only a prefix with the cached one is read again from its start (it
 *   failed: `llama_decode failed on the prompt`, the state being past the prefix), one that
 *   extends the cached one continues from the state, and one that shares all but the end of an
 *   earlier prompt goes back to the context checkpoint saved 4 (or 4 + 512) tokens before that
 *   prompt's end (native/checkpoints.cpp): the same prompt again, an edit in the answer. Each
 *   answers as a fresh engine does and as Debian's llama-server 0.7.0 does (greedy, 8 tokens: the
 *   same tokens, logprobs within 1e-3), and keeps as many tokens as llama-server (its `cache_n`,
 *   its RAM prompt cache off). The engine says it cannot take back drafts (`partialRemoval`
 *   false), so no request drafts there.
 * - A sliding window: `inpage-test-swa` (a window of 16). Its layers' cache holds the window and a
 *   batch (768 cells; native/load.cpp). After a 1,000-token prompt, one that shares its first 100
 *   tokens is read again from its start (their window is gone), and one that extends it keeps it;
 *   after an 800-token answer, the same prompt again goes back to the checkpoint: as a fresh
 *   engine, and as llama-server (tokens and tokens kept).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildInpageTestLfm2Model } from '../fixtures/inpage-test-lfm2';
import { buildInpageTestMambaModel } from '../fixtures/inpage-test-mamba';
import { buildInpageTestSwaModel } from '../fixtures/inpage-test-swa';
import { useEngineWasm } from './engine-wasm-server';
import { greedyTokens } from './greedy-tokens';
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

/**
 * Greedy, `count` tokens after `ids`, the cache reused where it can be; each generated token
 * decoded, or all but the last where `pushLast` is false (as llama-server does, which ends there).
 */
function answer(engine: Engine, ids: number[], { count = 8, pushLast = true } = {}): Promise<Answer> {
  return engine.exclusive(async () => {
    const kept = await engine.begin(ids, true);
    return { ...(await greedyTokens(engine, { count, pushLast })), kept };
  });
}

/** llama-server's greedy answer to the token prompt `prompt` on slot 0: its tokens, logprobs and `cache_n`. */
async function nativeAnswer(baseURL: string, prompt: number[], count = 8): Promise<Answer> {
  const response = await fetch(`${baseURL.replace(/\/v1$/, '')}/completion`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      prompt,
      temperature: 0,
      n_predict: count,
      n_probs: 1,
      return_tokens: true,
      id_slot: 0,
      ignore_eos: true,
    }),
  });
  const body = (await response.json()) as {
    tokens: number[];
    completion_probabilities: Array<{ logprob: number }>;
    timings: { cache_n: number };
  };
  assert.equal(response.status, 200, JSON.stringify(body));
  return {
    tokens: body.tokens,
    logprobs: body.completion_probabilities.map((p) => p.logprob),
    kept: body.timings.cache_n,
  };
}

/**
 * llama-server on `model`, its RAM prompt cache off (`--cache-ram 0`: it would load another
 * prompt's saved state, which the engine has no counterpart of) and its context checkpoints on.
 */
function nativeServer(model: Uint8Array) {
  placeModel('engine-prefix-memory', model);
  return startLlamaServer({ model: 'engine-prefix-memory', args: ['--cache-ram', '0'] });
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
      assert.equal(again.kept, extended.length - 4, 'the same prompt again: the checkpoint 4 tokens before its end');
      assertSame(again, next, 'the same prompt again');
      assert.notDeepEqual(first.tokens, prefixOnly.tokens);
    });

    test("the same requests give llama-server's tokens and keep as many", { skip: skip ?? false }, async () => {
      const llama = await nativeServer(model);
      try {
        const engine = await engineWith(model);
        const ask = async (step: string, prompt: number[], kept: number) => {
          const ours = await answer(engine, prompt, { pushLast: false });
          const native = await nativeAnswer(llama.baseURL, prompt);
          assertSame(ours, native, step);
          assert.equal(ours.kept, native.kept, `${step}: tokens kept`);
          assert.equal(ours.kept, kept, `${step}: tokens kept`);
          return ours;
        };
        const first = await ask('first', FIRST, 0);
        await ask('the first again (a checkpoint 4 tokens before its end)', FIRST, 296);
        await ask(
          'an edit in the answer (the same checkpoint)',
          [...FIRST, ...first.tokens.slice(0, 4), ...letters(6, 5)],
          296,
        );
        const prefixOnly = await ask('a shared prefix (read again)', SHARES_A_PREFIX, 0);
        const extended = [...SHARES_A_PREFIX, ...prefixOnly.tokens, ...letters(10, 7)];
        await ask('an extended prompt (the state continues)', extended, SHARES_A_PREFIX.length + 7);
        await ask('the extended prompt again', extended, extended.length - 4);
        const long = [...FIRST, ...letters(700, 7)];
        await ask('a long prompt', long, 0);
        await ask(
          '300 tokens before its end (the checkpoint 4 + 512 before it)',
          [...long.slice(0, 700), ...letters(50, 11)],
          484,
        );
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

  test(
    "after an 800-token answer the same prompt goes back to a checkpoint, as llama-server's",
    { skip: skip ?? false },
    async () => {
      const model = buildInpageTestSwaModel();
      const llama = await nativeServer(model);
      try {
        const engine = await engineWith(model);
        const prompt = letters(300, 3);
        // 800 tokens: the cache then holds the last 768 cells, none of the prompt's. (Greedy on
        // random weights, the two answers part after some hundred tokens, an F32 cache against
        // llama-server's F16: only the counts are compared there.)
        const long = await answer(engine, prompt, { count: 800, pushLast: false });
        const nativeLong = await nativeAnswer(llama.baseURL, prompt, 800);
        assert.deepEqual([long.kept, nativeLong.kept, nativeLong.tokens.length], [0, 0, 800]);
        // The window's cells at the checkpoint end one before it: llama-server goes back to its
        // last position (server-context.cpp, TAG_CHECKPOINTS_FIX_POS_MIN), 295.
        const again = await answer(engine, prompt, { pushLast: false });
        const nativeAgain = await nativeAnswer(llama.baseURL, prompt);
        assertSame(again, nativeAgain, 'the same prompt again');
        assert.equal(again.kept, nativeAgain.kept, 'the same prompt again: tokens kept');
        assert.equal(again.kept, 295);
        const fresh = await answer(await engineWith(model), prompt);
        assertSame(await answer(engine, prompt), fresh, 'as a fresh engine');
      } finally {
        await llama.stop();
      }
    },
  );
});
