/**
 * The multimodal test pairs (`npm run build` writes them to dist/models/) against Debian's native
 * `llama-server` 0.7.0 with `--mmproj`: `inpage-test-vision` (projector `mlp`) answers an OpenAI
 * chat request with an `image_url` data: URL, `inpage-test-audio` (projector `ultravox`) one with
 * an `input_audio` part; the prompt counts the media's tokens (16 per image, 375 per 30 s of
 * sound), and different pictures and different sounds give different greedy text. Skipped, with
 * what is missing, where the server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  buildInpageTestAudioModel,
  buildInpageTestAudioProjector,
  inpageTestAudioChunkTokens,
} from '../fixtures/inpage-test-audio';
import {
  buildInpageTestVisionModel,
  buildInpageTestVisionProjector,
  inpageTestVisionImageTokens,
} from '../fixtures/inpage-test-vision';
import { pngBytes, wavBytes } from '../fixtures/test-media';
import { serverSkip, startMmprojServer, type LlamaServer } from './llama-server';
import { mtmdTestMedia } from './mtmd-test-media';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

/** llama.cpp's own test media (mtmd-test-media.ts). */
const own = mtmdTestMedia();

type Part =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } };

interface Answer {
  text: string;
  promptTokens: number;
  logprobs: number[];
}

/** A greedy chat answer of 8 tokens to one user message, with each token's logprob. */
async function chat(server: LlamaServer, content: Part[]): Promise<Answer> {
  const response = await fetch(`${server.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      messages: [{ role: 'user', content }],
      temperature: 0,
      max_tokens: 8,
      logprobs: true,
    }),
  });
  const body = await response.text();
  assert.equal(response.status, 200, body);
  const json = JSON.parse(body) as {
    choices: Array<{ message: { content: string }; logprobs: { content: Array<{ logprob: number }> } }>;
    usage: { prompt_tokens: number };
  };
  const choice = json.choices[0];
  assert.ok(choice, body);
  return {
    text: choice.message.content,
    promptTokens: json.usage.prompt_tokens,
    logprobs: choice.logprobs.content.map((t) => t.logprob),
  };
}

/** Asserts that no two answers are the same text. */
function assertAllDiffer(answers: Record<string, Answer>): void {
  const entries = Object.entries(answers);
  for (const [i, [a, x]] of entries.entries()) {
    for (const [b, y] of entries.slice(i + 1)) assert.notEqual(x.text, y.text, `${a} and ${b}: ${x.text}`);
  }
}

/**
 * The text after the media: the pairs' template concatenates the contents, and a prompt that ends
 * in media aborts llama-server 0.7.0 (`GGML_ASSERT(batch.size() > 0)` in server-context.cpp).
 */
const TEXT: Part = { type: 'text', text: 'describe' };

describe('inpage-test-vision (mlp) on native llama-server --mmproj', { skip: skip ?? false }, () => {
  let server: LlamaServer;
  before(async () => {
    server = await startMmprojServer(
      'inpage-test-vision',
      buildInpageTestVisionModel(),
      buildInpageTestVisionProjector(),
    );
  });
  after(() => server?.stop());

  const image = (mime: string, bytes: Buffer): Part => ({
    type: 'image_url',
    image_url: { url: `data:${mime};base64,${bytes.toString('base64')}` },
  });
  const images: Record<string, Part> = {
    gradient: image(
      'image/png',
      pngBytes(48, 48, (x, y) => [x * 5, y * 5, 128]),
    ),
    checkers: image(
      'image/png',
      pngBytes(48, 48, (x, y) => (((x >> 3) + (y >> 3)) % 2 ? [255, 255, 255] : [0, 0, 0])),
    ),
    'test-1.jpeg': image('image/jpeg', own['test-1.jpeg']),
  };

  test('an image is 16 prompt tokens, and different images give different text', async () => {
    const textOnly = await chat(server, [TEXT]);
    const answers: Record<string, Answer> = {};
    for (const [name, part] of Object.entries(images)) {
      answers[name] = await chat(server, [part, TEXT]);
      assert.equal(answers[name].promptTokens, textOnly.promptTokens + inpageTestVisionImageTokens, name);
      assert.ok(answers[name].text.length > 0, name);
    }
    assertAllDiffer(answers);
    const again = await chat(server, [images.gradient as Part, TEXT]);
    assert.deepEqual(again, answers.gradient, 'the same image, the same answer');
  });
});

describe('inpage-test-audio (ultravox) on native llama-server --mmproj', { skip: skip ?? false }, () => {
  let server: LlamaServer;
  before(async () => {
    server = await startMmprojServer('inpage-test-audio', buildInpageTestAudioModel(), buildInpageTestAudioProjector());
  });
  after(() => server?.stop());

  const wav = (bytes: Buffer): Part => ({
    type: 'input_audio',
    input_audio: { data: bytes.toString('base64'), format: 'wav' },
  });
  let noise = 1;
  const sounds: Record<string, Part> = {
    sine: wav(wavBytes(2, (t) => 0.5 * Math.sin(2 * Math.PI * 440 * t))),
    noise: wav(wavBytes(2, () => (noise = (noise * 48271) % 2147483647) / 2147483647 - 0.5)),
    'test-2.mp3': { type: 'input_audio', input_audio: { data: own['test-2.mp3'].toString('base64'), format: 'mp3' } },
  };

  test('30 s of sound (or less) is 375 prompt tokens, and different sounds give different text', async () => {
    const textOnly = await chat(server, [TEXT]);
    const answers: Record<string, Answer> = {};
    for (const [name, part] of Object.entries(sounds)) {
      answers[name] = await chat(server, [part, TEXT]);
      assert.equal(answers[name].promptTokens, textOnly.promptTokens + inpageTestAudioChunkTokens, name);
      assert.ok(answers[name].text.length > 0, name);
    }
    assertAllDiffer(answers);
  });
});
