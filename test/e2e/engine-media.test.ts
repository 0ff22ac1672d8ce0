/**
 * The engine's images and audio (native/media.cpp, through `LlamaWasm`), in Node on the committed
 * single-threaded SIMD128 build, against Debian's native llama-server 0.7.0 `--mmproj` on the
 * same files (its `/completion` with `multimodal_data`): the multimodal test pairs, two
 * generated images and a generated WAV, greedy, 8 tokens. The same prompt tokens (16 per image,
 * 375 per sound) and generated tokens, and logprobs within 1e-3: llama-server's defaults (an F16
 * KV cache with flash attention) against the engine's F32 cache without it differ by up to 6e-4
 * on these pairs (queries and keys scaled by 4; docs/multimodal.md). The request's faults
 * (an undecodable item, a modality the projector lacks, markers and items not as many, media
 * last) throw EngineInputError and leave the engine exact; a projector of another width fails to
 * load with llama.cpp's reason.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  buildInpageTestAudioModel,
  buildInpageTestAudioProjector,
  inpageTestAudioChunkTokens,
} from '../fixtures/inpage-test-audio';
import { buildInpageTestMropeModel, buildInpageTestMropeProjector } from '../fixtures/inpage-test-mrope';
import { buildInpageTestQwen3vlModel, buildInpageTestQwen3vlProjector } from '../fixtures/inpage-test-qwen3vl';
import {
  buildInpageTestVisionModel,
  buildInpageTestVisionProjector,
  inpageTestVisionImageTokens,
} from '../fixtures/inpage-test-vision';
import { pngBytes, wavBytes } from '../fixtures/test-media';
import { useEngineWasm } from './engine-wasm-server';
import { greedyTokens } from './greedy-tokens';
import { serverSkip, startMmprojServer } from './llama-server';
import { mtmdTestMedia } from './mtmd-test-media';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

Object.assign(globalThis, { __INPAGE_TEST_HOOKS__: false });
const { LlamaWasm } = await import('../../worker/engine/backends/llamacpp/llama-wasm');
const { EngineInputError } = await import('../../worker/engine/backends/llamacpp/engine-error');
type Engine = Awaited<ReturnType<typeof LlamaWasm.start>>;

const wasm = useEngineWasm();

interface Answer {
  tokens: number[];
  logprobs: number[];
  promptTokens: number;
}

const MARKER = '<__media__>';
const TEXT = 'describe';

async function engineWith(model: Uint8Array<ArrayBuffer>, projector: Uint8Array<ArrayBuffer>): Promise<Engine> {
  const engine = await LlamaWasm.start({ wasm: wasm.url(), loader: null, pthreads: false });
  await engine.load([{ name: 'model.gguf', blob: new Blob([model]) }], 4096, { prefill: 1, decode: 1 }, 512);
  const { onGpu } = await engine.loadProjector({ name: 'mmproj.gguf', blob: new Blob([projector]) });
  assert.equal(onGpu, false, 'the CPU build has no GPU device for the projector');
  return engine;
}

/** A greedy answer of 8 tokens to `MARKER + TEXT` with `media`, as one section (answers asked for together run in turn). */
function answer(engine: Engine, media: Uint8Array[], text = TEXT): Promise<Answer> {
  return answerPrompt(engine, { text: `${MARKER.repeat(media.length)}${text}`, media });
}

/** A greedy answer of 8 tokens to `prompt`, media (if any) read by the projector, the cache reused. */
function answerPrompt(engine: Engine, prompt: MediaPrompt | { ids: number[] }): Promise<Answer> {
  return engine.exclusive(async () => {
    const ids =
      'ids' in prompt
        ? (await engine.begin(prompt.ids, true), prompt.ids)
        : (await engine.beginWithMedia(prompt.text, prompt.media, true, true, true)).ids;
    const { tokens, logprobs } = await greedyTokens(engine, { stopAtEnd: true });
    return { tokens, logprobs, promptTokens: ids.length };
  });
}

/** `beginWithMedia` as a section of its own. */
const begin = (engine: Engine, text: string, media: Uint8Array[]) =>
  engine.exclusive(() => engine.beginWithMedia(text, media, true, true, true));

/** llama-server with the engine's KV cache for these models: F32, without flash attention. */
const F32_CACHE = ['-ctk', 'f32', '-ctv', 'f32', '-fa', 'off'];

/** A prompt of text with `MARKER` where each of its media items goes. */
interface MediaPrompt {
  text: string;
  media: Uint8Array[];
}

/** One item before `TEXT`. */
const itemPrompt = (item: Uint8Array): MediaPrompt => ({ text: `${MARKER}${TEXT}`, media: [item] });

async function native(
  name: string,
  model: Uint8Array,
  projector: Uint8Array,
  media: Uint8Array[],
  args: string[] = [],
) {
  return nativePrompts(name, model, projector, media.map(itemPrompt), args);
}

/** llama-server's greedy 8 tokens for each prompt (its media marker where `MARKER` is). */
async function nativePrompts(
  name: string,
  model: Uint8Array,
  projector: Uint8Array,
  prompts: MediaPrompt[],
  args: string[] = [],
) {
  const llama = await startMmprojServer(name, model, projector, args);
  try {
    const root = llama.baseURL.replace(/\/v1$/, '');
    const props = (await (await fetch(`${root}/props`)).json()) as { media_marker: string };
    const answers: Answer[] = [];
    for (const { text, media } of prompts) {
      const response = await fetch(`${root}/completion`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          prompt: {
            prompt_string: text.replaceAll(MARKER, props.media_marker),
            multimodal_data: media.map((item) => Buffer.from(item).toString('base64')),
          },
          temperature: 0,
          n_predict: 8,
          n_probs: 1,
          return_tokens: true,
          cache_prompt: false,
        }),
      });
      const body = (await response.json()) as {
        tokens: number[];
        completion_probabilities: Array<{ logprob: number }>;
        tokens_evaluated: number;
      };
      assert.equal(response.status, 200, JSON.stringify(body));
      answers.push({
        tokens: body.tokens,
        logprobs: body.completion_probabilities.map((p) => p.logprob),
        promptTokens: body.tokens_evaluated,
      });
    }
    return answers;
  } finally {
    await llama.stop();
  }
}

function assertSame(actual: Answer, expected: Answer, label: string): void {
  assert.deepEqual(actual.tokens, expected.tokens, label);
  assert.equal(actual.promptTokens, expected.promptTokens, label);
  actual.logprobs.forEach((logprob, i) => {
    const want = expected.logprobs[i] ?? NaN;
    assert.ok(Math.abs(logprob - want) < 1e-3, `${label}, token ${i}: ${logprob} vs ${want}`);
  });
}

const IMAGES = [
  pngBytes(48, 48, (x, y) => [x * 5, y * 5, 128]),
  pngBytes(48, 48, (x, y) => (((x >> 3) + (y >> 3)) % 2 ? [255, 255, 255] : [0, 0, 0])),
];
const SOUND = wavBytes(2, (t) => 0.5 * Math.sin(2 * Math.PI * 440 * t));

/** llama.cpp's own test media (mtmd-test-media.ts). */
const OWN = mtmdTestMedia();

/** Images of other sizes, aspect ratios and PNG colour types, and llama.cpp's JPEG. */
const MORE_IMAGES: Record<string, Uint8Array> = {
  'gray 33x47': pngBytes(33, 47, (x, y) => [(x * y) % 256], 1),
  'gray and alpha 64x16': pngBytes(64, 16, (x, y) => [x * 4, y * 16], 2),
  'RGBA 17x90': pngBytes(17, 90, (x, y) => [x * 15, y * 2, 128, (x + y) % 256], 4),
  'RGB 400x300': pngBytes(400, 300, (x, y) => [x % 256, y % 256, (x ^ y) % 256]),
  'test-1.jpeg': OWN['test-1.jpeg'],
};

const tone = (hz: number) => (t: number) => 0.4 * Math.sin(2 * Math.PI * hz * t);
/** Sounds of other rates, channels and lengths (past 30 s: two chunks), and llama.cpp's MP3. */
const MORE_SOUNDS: Record<string, Uint8Array> = {
  '8 kHz, 1 s': wavBytes(1, tone(300), 8000),
  '44.1 kHz stereo, 3 s': wavBytes(3, tone(520), 44100, 2),
  '48 kHz, 0.2 s': wavBytes(0.2, tone(1000), 48000),
  '16 kHz, 31 s': wavBytes(31, (t) => tone(200)(t) * Math.sin(t)),
  'test-2.mp3': OWN['test-2.mp3'],
};

describe('images and audio in the engine', () => {
  test(
    'inpage-test-vision: two images, the same tokens as llama-server --mmproj',
    { skip: skip ?? false },
    async () => {
      const [model, projector] = [buildInpageTestVisionModel(), buildInpageTestVisionProjector()];
      const engine = await engineWith(model, projector);
      const ours = await Promise.all(IMAGES.map((image) => answer(engine, [image])));
      assert.equal(ours[0]?.promptTokens, inpageTestVisionImageTokens + TEXT.length);
      assert.notDeepEqual(ours[0]?.tokens, ours[1]?.tokens, 'two images, two answers');
      const theirs = await native('engine-media-vision', model, projector, IMAGES);
      ours.forEach((mine, i) => assertSame(mine, theirs[i] as Answer, `image ${i}`));
    },
  );

  test('inpage-test-audio: a WAV, the same tokens as llama-server --mmproj', { skip: skip ?? false }, async () => {
    const [model, projector] = [buildInpageTestAudioModel(), buildInpageTestAudioProjector()];
    const engine = await engineWith(model, projector);
    const mine = await answer(engine, [SOUND]);
    assert.equal(mine.promptTokens, inpageTestAudioChunkTokens + TEXT.length);
    const [theirs] = await native('engine-media-audio', model, projector, [SOUND]);
    assertSame(mine, theirs as Answer, 'sound');
  });

  test(
    "more images and sounds (sizes, colour types, JPEG; rates, channels, lengths, MP3): llama-server's tokens",
    {
      skip: skip ?? false,
    },
    async () => {
      for (const [label, pair, media] of [
        ['vision', [buildInpageTestVisionModel(), buildInpageTestVisionProjector()], MORE_IMAGES],
        ['audio', [buildInpageTestAudioModel(), buildInpageTestAudioProjector()], MORE_SOUNDS],
      ] as const) {
        const [model, projector] = pair;
        const engine = await engineWith(model, projector);
        const names = Object.keys(media);
        const items = Object.values(media);
        const ours = await Promise.all(items.map((item) => answer(engine, [item])));
        // Over hundreds of audio tokens an F16 cache moves a logprob by up to 1.1e-3: the engine's cache here.
        const theirs = await native(`engine-media-more-${label}`, model, projector, items, F32_CACHE);
        ours.forEach((mine, i) => assertSame(mine, theirs[i] as Answer, `${label}: ${names[i]}`));
      }
    },
  );

  test("the request's faults are refused by name, and the next answer is exact", async () => {
    const engine = await engineWith(buildInpageTestVisionModel(), buildInpageTestVisionProjector());
    const before = await answer(engine, [IMAGES[0] as Uint8Array]);
    const refused = (media: Uint8Array[], text: string, message: RegExp) =>
      assert.rejects(
        begin(engine, text, media),
        (error) => error instanceof EngineInputError && message.test(error.message),
      );
    await refused(
      [new TextEncoder().encode('not an image at all')],
      `${MARKER}${TEXT}`,
      /media item 0 could not be decoded as an image/,
    );
    await refused(
      [IMAGES[0] as Uint8Array, SOUND],
      `${MARKER}${MARKER}${TEXT}`,
      /media item 1 is audio, and this model takes no audio/,
    );
    await refused(
      [IMAGES[0] as Uint8Array],
      `${MARKER}${MARKER}${TEXT}`,
      /the prompt has 2 media markers \(<__media__>\) and 1 media items/,
    );
    await refused([IMAGES[0] as Uint8Array], `${TEXT}${MARKER}`, /ends with media/);
    assert.deepEqual(await answer(engine, [IMAGES[0] as Uint8Array]), before);
  });

  test('the same image at the same place keeps its cells (by content), and the answer is the same', async () => {
    const engine = await engineWith(buildInpageTestVisionModel(), buildInpageTestVisionProjector());
    const [first, second] = [IMAGES[0] as Uint8Array, IMAGES[1] as Uint8Array];
    const fresh = await answer(engine, [first]);
    // The same bytes again: the image's cells and the text are kept (all but the last token).
    const again = await begin(engine, `${MARKER}${TEXT}`, [Uint8Array.from(first)]);
    assert.equal(again.cached, again.ids.length - 1);
    await engine.exclusive(() => engine.begin([0], false));
    // After another image, its cells are not the first image's: what is kept ends where the image starts.
    await answer(engine, [second]);
    const other = await begin(engine, `${MARKER}${TEXT}`, [first]);
    assert.equal(other.ids[other.cached], -1);
    // A longer conversation about the same image reuses it, and answers as a fresh engine does.
    await answer(engine, [first], `${TEXT} it`);
    const reused = await begin(engine, `${MARKER}${TEXT} it again`, [first]);
    assert.ok(reused.cached >= inpageTestVisionImageTokens + TEXT.length, `${reused.cached} kept`);
    const longer = await answer(engine, [first], `${TEXT} it again`);
    const freshEngine = await engineWith(buildInpageTestVisionModel(), buildInpageTestVisionProjector());
    assertSame(longer, await answer(freshEngine, [first], `${TEXT} it again`), 'reused');
    assert.notDeepEqual(longer.tokens, fresh.tokens);
  });

  test("a projector of another model's width fails to load, with llama.cpp's reason", async () => {
    const engine = await LlamaWasm.start({ wasm: wasm.url(), loader: null, pthreads: false });
    const model = buildInpageTestVisionModel();
    await engine.load([{ name: 'model.gguf', blob: new Blob([model]) }], 4096, { prefill: 1, decode: 1 }, 512);
    await assert.rejects(
      engine.loadProjector({ name: 'mmproj.gguf', blob: new Blob([buildInpageTestAudioProjector()]) }),
      /mismatch between text model \(n_embd = 128\) and mmproj \(n_embd = 64\)/,
    );
  });
});

describe('M-RoPE images in the engine (inpage-test-mrope: a Qwen2-VL projector and text model)', () => {
  const pair = () => [buildInpageTestMropeModel(), buildInpageTestMropeProjector()] as const;
  /** `<|vision_start|>` and `<|vision_end|>` around each image, in bytes (the byte vocabulary). */
  const WRAP = '<|vision_start|>'.length + '<|vision_end|>'.length;
  const square = pngBytes(24, 24, (x, y) => (x < 12 === y < 12 ? [200, 40, 40] : [30, 60, 220]));
  const wide = pngBytes(32, 24, (x) => (x < 16 ? [20, 200, 40] : [230, 230, 20]));
  /**
   * After an image of w x h tokens the text's positions run max(w, h) on, not w * h: the 3x3
   * square takes 3 positions for its 9 cells, the 48x48 gradient 6 for 36.
   */
  const PROMPTS: Record<string, MediaPrompt> = {
    'square (3x3 tokens)': itemPrompt(square),
    'wide (4x3 tokens)': itemPrompt(wide),
    'gradient 48x48 (6x6 tokens)': itemPrompt(IMAGES[0] as Uint8Array),
    'two images, text between': { text: `${MARKER}and${MARKER}${TEXT}`, media: [wide, square] },
    'text first': { text: `look: ${MARKER}${TEXT}`, media: [square] },
  };

  // Qwen3-VL's projector also passes a middle block's features beside the image's embeddings
  // (deepstack: the text model adds them to its first layers), and its text model places
  // positions interleaved (IMROPE); the engine's part, the positions, is the same.
  const PAIRS = {
    'inpage-test-mrope (Qwen2-VL)': pair,
    'inpage-test-qwen3vl (Qwen3-VL, deepstack)': () =>
      [buildInpageTestQwen3vlModel(), buildInpageTestQwen3vlProjector()] as const,
  };
  for (const [label, build] of Object.entries(PAIRS))
    test(
      `${label}: images of three sizes, two in one prompt, text before one: the tokens of llama-server --mmproj`,
      { skip: skip ?? false },
      async () => {
        const [model, projector] = build();
        const engine = await engineWith(model, projector);
        const names = Object.keys(PROMPTS);
        const prompts = Object.values(PROMPTS);
        const ours: Answer[] = [];
        for (const prompt of prompts) ours.push(await answerPrompt(engine, prompt));
        assert.equal(ours[0]?.promptTokens, WRAP + 9 + TEXT.length);
        assert.equal(ours[1]?.promptTokens, WRAP + 12 + TEXT.length);
        assert.notDeepEqual(ours[0]?.tokens, ours[1]?.tokens, 'two images, two answers');
        const theirs = await nativePrompts('engine-media-mrope', model, projector, prompts, F32_CACHE);
        ours.forEach((mine, i) => assertSame(mine, theirs[i] as Answer, names[i] as string));
      },
    );

  test("the next turn keeps the image's cells and answers as a fresh engine; text alone after it starts at 0", async () => {
    const [model, projector] = pair();
    const engine = await engineWith(model, projector);
    await answer(engine, [wide]);
    // Cut after the image: at its position (4 for 12 cells), or the kept text would be moved.
    const reused = await begin(engine, `${MARKER}${TEXT} it again`, [wide]);
    assert.ok(reused.cached >= WRAP + 12 + TEXT.length, `${reused.cached} kept`);
    const longer = await answer(engine, [wide], `${TEXT} it again`);
    assertSame(longer, await answer(await engineWith(model, projector), [wide], `${TEXT} it again`), 'reused');
    // Text only after it, in the same slot: none of the image's cells or positions stay.
    const ids = engine.tokenize(`${TEXT} plain`, true, false);
    const plain = await answerPrompt(engine, { ids });
    assertSame(plain, await answerPrompt(await engineWith(model, projector), { ids }), 'text after an image');
  });
});
