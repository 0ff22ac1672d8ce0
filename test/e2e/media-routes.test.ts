/**
 * Images and audio through the routes (issue 32, item 3), against Debian's llama-server 0.7.0
 * `--mmproj` on the same test pairs: `/v1/chat/completions` with `image_url` and `input_audio`
 * parts (JSON and SSE), Anthropic `image` blocks on `/v1/messages` and `count_tokens`, Responses
 * `input_image` parts, `/completion` with `multimodal_data` at `/props`' `media_marker`, and
 * `/v1/audio/transcriptions` from the openai SDK. Greedy, 8 tokens: the same text and token
 * counts, and logprobs within 1e-3 (docs/multimodal.md; the servers run the engine's F32
 * cache). Bad media answer 400 naming the part, and the engine's next answer is still exact.
 * A second native reference, llama-mtmd-cli (mtmd-cli.ts), gives the page's text for llama.cpp's
 * own test-1.jpeg and test-2.mp3 (mtmd-test-media.ts) and for generated media.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
import { gradientPng, pngBytes, wavBytes } from '../fixtures/test-media';
import { serverSkip, startMmprojServer, toolsExtraSkip, type LlamaServer } from './llama-server';
import { mtmdCliText } from './mtmd-cli';
import { mtmdTestMedia } from './mtmd-test-media';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';
import { assertSameChat, type ChatAnswer } from './same-chat';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);
const mtmdCliSkip = skip ?? toolsExtraSkip('llama-mtmd-cli');
if (mtmdCliSkip) console.log(`# skipped: ${mtmdCliSkip}`);

const fixture = usePage('/?model=inpage-test-vision');

const IMAGE = gradientPng();
const SOUND = wavBytes(1.5, (t) => 0.4 * Math.sin(2 * Math.PI * 330 * t) * Math.exp(-t));
const dataUrl = (type: string, bytes: Uint8Array) => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;

const GREEDY = { temperature: 0, max_tokens: 8, logprobs: true, top_logprobs: 1 };

function imageChat(model: string, url = dataUrl('image/png', IMAGE)) {
  return {
    model,
    ...GREEDY,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is in it?' },
          { type: 'image_url', image_url: { url } },
          { type: 'text', text: 'say' },
        ],
      },
    ],
  };
}

function audioChat(model: string) {
  const data = Buffer.from(SOUND).toString('base64');
  return {
    model,
    ...GREEDY,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'input_audio', input_audio: { data, format: 'wav' } },
          { type: 'text', text: 'hear' },
        ],
      },
    ],
  };
}

async function native<T>(server: LlamaServer, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${server.baseURL.replace(/\/v1$/, '')}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  assert.equal(response.status, 200, JSON.stringify(json));
  return json;
}

async function page<T>(path: string, body: unknown): Promise<T> {
  const answer = await postFromPage(fixture.page, path, body);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as T;
}

/** An image of `width` x `height` RGBA pixels (`pixel(x, y)`) encoded by Chromium as `type` (quality 1). */
async function encodedInPage(
  width: number,
  height: number,
  pixel: (x: number, y: number) => readonly number[],
  type: 'image/webp' | 'image/jpeg',
): Promise<Buffer> {
  const rgba: number[] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgba.push(...pixel(x, y));
  const bytes = await fixture.page.evaluate(
    async ({ width, height, rgba, type }) => {
      const canvas = new OffscreenCanvas(width, height);
      canvas.getContext('2d')?.putImageData(new ImageData(Uint8ClampedArray.from(rgba), width, height), 0, 0);
      const blob = await canvas.convertToBlob({ type, quality: 1 });
      return [...new Uint8Array(await blob.arrayBuffer())];
    },
    { width, height, rgba, type },
  );
  return Buffer.from(bytes);
}

/** The page's chat answer for the image at `pageUrl` is llama-server's for the one at `nativeUrl` (the same pixels). */
async function assertSameImageAnswer(vision: LlamaServer, nativeUrl: string, pageUrl: string, label: string) {
  const expected = await native<ChatAnswer>(vision, '/v1/chat/completions', imageChat('m', nativeUrl));
  const actual = await page<ChatAnswer>('/v1/chat/completions', imageChat('inpage-test-vision', pageUrl));
  assertSameChat(actual, expected, label);
}

/** Loads the audio pair from dist/models beside the vision pair. */
const loadAudioPair = () =>
  fixture.page.evaluate(async () => {
    const url = (name: string) => new URL(`/models/${name}.gguf`, location.href).href;
    await window.inpage.load({
      id: 'inpage-test-audio',
      backend: 'llamacpp',
      source: { kind: 'url', url: url('inpage-test-audio') },
      mmproj: { id: 'inpage-test-audio.mmproj', source: { kind: 'url', url: url('inpage-test-audio.mmproj') } },
    });
  });

describe('images and audio through the routes, against llama-server --mmproj', { skip: skip ?? false }, () => {
  let vision: LlamaServer;
  let audio: LlamaServer;
  before(async () => {
    // Both with the engine's cache, F32 without flash attention: over 375 audio tokens an F16 cache
    // moves logprobs by 1.5e-3, and on the icon below its first two tokens are 6e-4 apart, which
    // an F16 cache swaps.
    const f32Cache = ['-ctk', 'f32', '-ctv', 'f32', '-fa', 'off'];
    vision = await startMmprojServer(
      'media-vision',
      buildInpageTestVisionModel(),
      buildInpageTestVisionProjector(),
      f32Cache,
    );
    audio = await startMmprojServer(
      'media-audio',
      buildInpageTestAudioModel(),
      buildInpageTestAudioProjector(),
      f32Cache,
    );
    await loadAudioPair();
  });
  after(async () => {
    await vision?.stop();
    await audio?.stop();
  });

  test('chat: an image_url part gives the same answer as llama-server, JSON and SSE', async () => {
    const expected = await native<ChatAnswer>(vision, '/v1/chat/completions', imageChat('m'));
    const actual = await page<ChatAnswer>('/v1/chat/completions', imageChat('inpage-test-vision'));
    assertSameChat(actual, expected, 'image');
    assert.ok(actual.usage.prompt_tokens > inpageTestVisionImageTokens, 'the image counts its tokens');
    const streamed = await fixture.page.evaluate(async (body) => {
      const response = await fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, stream: true, stream_options: { include_usage: true } }),
      });
      const text = await response.text();
      const events = text
        .split('\n')
        .filter((line) => line.startsWith('data: {'))
        .map((line) => JSON.parse(line.slice(6)) as Record<string, never>);
      return { status: response.status, events };
    }, imageChat('inpage-test-vision'));
    assert.equal(streamed.status, 200);
    const content = streamed.events
      .map((event: { choices?: Array<{ delta?: { content?: string } }> }) => event.choices?.[0]?.delta?.content ?? '')
      .join('');
    assert.equal(content, expected.choices[0]?.message.content);
    const usage = streamed.events.at(-1) as { usage?: { prompt_tokens: number } };
    assert.equal(usage.usage?.prompt_tokens, expected.usage.prompt_tokens);
  });

  test("chat: an http(s) image_url is downloaded by the Service Worker: llama-server's answer for the same bytes", async () => {
    const icon = readFileSync('dist/icons/icon-192.png');
    const expected = await native<ChatAnswer>(
      vision,
      '/v1/chat/completions',
      imageChat('m', dataUrl('image/png', icon)),
    );
    const url = new URL('/icons/icon-192.png', fixture.page.url()).href;
    const actual = await page<ChatAnswer>('/v1/chat/completions', imageChat('inpage-test-vision', url));
    assertSameChat(actual, expected, 'by URL');
    const missing = await postFromPage(
      fixture.page,
      '/v1/chat/completions',
      imageChat('inpage-test-vision', new URL('/icons/no-such-icon.png', fixture.page.url()).href),
    );
    assert.equal(missing.status, 400);
    assert.deepEqual((missing.body as { error: { param: string } }).error.param, 'messages[0].content[1]');
    assert.match(JSON.stringify(missing.body), /Failed to download image \(HTTP 404\)/);
  });

  test('chat: an input_audio part gives the same answer as llama-server', async () => {
    const expected = await native<ChatAnswer>(audio, '/v1/chat/completions', audioChat('m'));
    const actual = await page<ChatAnswer>('/v1/chat/completions', audioChat('inpage-test-audio'));
    assertSameChat(actual, expected, 'audio');
    assert.ok(actual.usage.prompt_tokens > inpageTestAudioChunkTokens, 'the sound counts its tokens');
  });

  test("messages: an image block gives llama-server's answer; count_tokens counts its tokens", async () => {
    const body = (model: string) => ({
      model,
      max_tokens: 8,
      temperature: 0,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is in it?' },
            {
              type: 'image',
              source: { type: 'base64', media_type: 'image/png', data: Buffer.from(IMAGE).toString('base64') },
            },
            { type: 'text', text: 'say' },
          ],
        },
      ],
    });
    type Message = {
      content: Array<{ text: string }>;
      usage: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number };
    };
    const expected = await native<Message>(vision, '/v1/messages', body('m'));
    const actual = await page<Message>('/v1/messages', body('inpage-test-vision'));
    assert.equal(actual.content[0]?.text, expected.content[0]?.text);
    // The prompt's tokens: how many came from a cache depends on the slots (llama-server has two, the page one).
    const prompt = (usage: Message['usage']) => usage.input_tokens + (usage.cache_read_input_tokens ?? 0);
    assert.equal(prompt(actual.usage), prompt(expected.usage));
    assert.deepEqual(actual.usage.output_tokens, expected.usage.output_tokens);
    const { max_tokens: _unused, temperature: _too, ...counted } = body('inpage-test-vision');
    const count = await page<{ input_tokens: number }>('/v1/messages/count_tokens', counted);
    assert.equal(count.input_tokens, prompt(expected.usage));
    // A url source, downloaded by the Service Worker: llama-server's answer for the same bytes in base64.
    const icon = readFileSync('dist/icons/icon-192.png');
    const iconBody = (model: string, source: unknown) => ({
      ...body(model),
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source },
            { type: 'text', text: 'say' },
          ],
        },
      ],
    });
    const base64 = { type: 'base64', media_type: 'image/png', data: icon.toString('base64') };
    const url = { type: 'url', url: new URL('/icons/icon-192.png', fixture.page.url()).href };
    const byBytes = await native<Message>(vision, '/v1/messages', iconBody('m', base64));
    const byUrl = await page<Message>('/v1/messages', iconBody('inpage-test-vision', url));
    assert.equal(byUrl.content[0]?.text, byBytes.content[0]?.text, 'a url source');
    assert.equal(prompt(byUrl.usage), prompt(byBytes.usage));
  });

  test("responses: an input_image part gives llama-server's text", async () => {
    const body = (model: string) => ({
      model,
      max_output_tokens: 8,
      temperature: 0,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'what is in it?' },
            { type: 'input_image', image_url: dataUrl('image/png', IMAGE) },
            { type: 'input_text', text: 'say' },
          ],
        },
      ],
    });
    type Response = { output_text?: string; output: Array<{ type: string; content?: Array<{ text: string }> }> };
    const text = (response: Response) =>
      response.output
        .filter((item) => item.type === 'message')
        .flatMap((item) => item.content ?? [])
        .map((part) => part.text)
        .join('');
    const expected = await native<Response>(vision, '/v1/responses', body('m'));
    const actual = await page<Response>('/v1/responses', body('inpage-test-vision'));
    assert.ok(text(expected).length > 0);
    assert.equal(text(actual), text(expected));
    // The same image as an input_file (OpenAI's file part; llama-server refuses every input_file).
    const asFile = body('inpage-test-vision');
    const file = { type: 'input_file', file_data: dataUrl('image/png', IMAGE), filename: 'picture.png' };
    asFile.input[0]?.content.splice(1, 1, file as never);
    assert.equal(text(await page<Response>('/v1/responses', asFile)), text(expected), 'input_file');
    // A sound as input_file and as input_audio: llama-server's chat answer for the same conversation.
    const heard = await native<ChatAnswer>(audio, '/v1/chat/completions', audioChat('m'));
    const sound = Buffer.from(SOUND).toString('base64');
    for (const part of [
      { type: 'input_file', file_data: `data:audio/wav;base64,${sound}`, filename: 'sound.wav' },
      { type: 'input_audio', input_audio: { data: sound, format: 'wav' } },
    ]) {
      const hear = {
        model: 'inpage-test-audio',
        max_output_tokens: 8,
        temperature: 0,
        input: [{ role: 'user', content: [part, { type: 'input_text', text: 'hear' }] }],
      };
      assert.equal(text(await page<Response>('/v1/responses', hear)), heard.choices[0]?.message.content, part.type);
    }
  });

  test("/completion: multimodal_data at /props' media_marker gives llama-server's tokens", async () => {
    const ask = async (call: (path: string, body: unknown) => Promise<unknown>, marker: string) =>
      (await call('/completion', {
        prompt: { prompt_string: `look ${marker} then`, multimodal_data: [Buffer.from(IMAGE).toString('base64')] },
        temperature: 0,
        n_predict: 8,
        return_tokens: true,
      })) as { tokens: number[]; tokens_evaluated: number };
    const theirs = await fetch(`${vision.baseURL.replace(/\/v1$/, '')}/props`).then(
      (r) => r.json() as Promise<{ media_marker: string }>,
    );
    const ours = await fixture.page.evaluate(() =>
      fetch('/props?model=inpage-test-vision').then((r) => r.json() as Promise<{ media_marker: string }>),
    );
    const expected = await ask((path, body) => native(vision, path, body), theirs.media_marker);
    const actual = await ask(
      (path, body) => page(path, { ...(body as object), model: 'inpage-test-vision' }),
      ours.media_marker,
    );
    assert.deepEqual(actual.tokens, expected.tokens);
    assert.equal(actual.tokens_evaluated, expected.tokens_evaluated);
  });

  test("transcriptions: the openai SDK's audio.transcriptions.create gives llama-server's text", async () => {
    const form = new FormData();
    form.append('file', new Blob([Uint8Array.from(SOUND)], { type: 'audio/wav' }), 'sound.wav');
    form.append('model', 'm');
    form.append('temperature', '0');
    form.append('max_tokens', '8');
    const root = audio.baseURL.replace(/\/v1$/, '');
    const response = await fetch(`${root}/v1/audio/transcriptions`, { method: 'POST', body: form });
    const expected = (await response.json()) as { text: string; usage: { input_tokens: number } };
    assert.equal(response.status, 200, JSON.stringify(expected));
    const sound = Buffer.from(SOUND).toString('base64');
    const actual = await fixture.page.evaluate(async (sound) => {
      const client = new window.OpenAI({
        baseURL: `${location.origin}/v1`,
        apiKey: 'x',
        dangerouslyAllowBrowser: true,
      });
      const bytes = Uint8Array.from(atob(sound), (c) => c.charCodeAt(0));
      const file = new File([bytes], 'sound.wav', { type: 'audio/wav' });
      const common = { file, model: 'inpage-test-audio', temperature: 0, max_tokens: 8 };
      const json = await client.audio.transcriptions.create(common);
      const text = await client.audio.transcriptions.create({ ...common, response_format: 'text' });
      let refused = '';
      try {
        await client.audio.transcriptions.create({ ...common, model: 'inpage-test-vision' });
      } catch (error) {
        refused = `${(error as { status: number }).status} ${(error as { param: string }).param} ${(error as Error).message}`;
      }
      return { json, text, refused };
    }, sound);
    assert.equal(actual.json.text, expected.text);
    assert.equal(
      (actual.json as unknown as { usage: { input_tokens: number } }).usage.input_tokens,
      expected.usage.input_tokens,
    );
    assert.equal(actual.text, expected.text);
    assert.match(actual.refused, /^400 file .*The current model does not support audio input\./);
  });

  test("chat: the openai SDK's image_url and input_audio parts give llama-server's text", async () => {
    for (const [server, body] of [
      [vision, imageChat],
      [audio, audioChat],
    ] as const) {
      const expected = await native<ChatAnswer>(server, '/v1/chat/completions', body('m'));
      const model = server === vision ? 'inpage-test-vision' : 'inpage-test-audio';
      const text = await fixture.page.evaluate(async (body) => {
        const client = new window.OpenAI({
          baseURL: `${location.origin}/v1`,
          apiKey: 'x',
          dangerouslyAllowBrowser: true,
        });
        const completion = await client.chat.completions.create(body as never);
        return (completion as { choices: Array<{ message: { content: string | null } }> }).choices[0]?.message.content;
      }, body(model));
      assert.equal(text, expected.choices[0]?.message.content, model);
    }
  });

  test("/apply-template: the model's media_marker where each part was, as llama-server's; /completion takes it back", async () => {
    const body = { messages: imageChat('m').messages };
    const markerOf = async (call: () => Promise<{ media_marker: string }>) => (await call()).media_marker;
    const theirs = await markerOf(() =>
      fetch(`${vision.baseURL.replace(/\/v1$/, '')}/props`).then((r) => r.json() as Promise<{ media_marker: string }>),
    );
    const ours = await markerOf(() =>
      fixture.page.evaluate(() =>
        fetch('/props?model=inpage-test-vision').then((r) => r.json() as Promise<{ media_marker: string }>),
      ),
    );
    const expected = await native<{ prompt: string }>(vision, '/apply-template', body);
    const actual = await page<{ prompt: string }>('/apply-template', { ...body, model: 'inpage-test-vision' });
    assert.ok(expected.prompt.includes(theirs));
    assert.equal(actual.prompt, expected.prompt.split(theirs).join(ours));
    const completion = await page<{ tokens_evaluated: number }>('/completion', {
      model: 'inpage-test-vision',
      prompt: { prompt_string: actual.prompt, multimodal_data: [Buffer.from(IMAGE).toString('base64')] },
      n_predict: 1,
    });
    assert.ok(completion.tokens_evaluated > inpageTestVisionImageTokens);
    const refused = await postFromPage(fixture.page, '/apply-template', { ...body, model: 'inpage-test-audio' });
    assert.equal(refused.status, 400);
    assert.match(JSON.stringify(refused.body), /image input is not supported/);
  });

  test(
    "llama-mtmd-cli: llama.cpp's test-1.jpeg and test-2.mp3 and generated media give the page's text and llama-server's",
    { skip: mtmdCliSkip ?? false },
    async () => {
      const own = mtmdTestMedia();
      const cases = [
        { name: 'test-1.jpeg', kind: 'image', bytes: own['test-1.jpeg'], type: 'image/jpeg' },
        { name: 'a PNG', kind: 'image', bytes: IMAGE, type: 'image/png' },
        { name: 'test-2.mp3', kind: 'audio', bytes: own['test-2.mp3'], type: 'mp3' },
        { name: 'a WAV', kind: 'audio', bytes: SOUND, type: 'wav' },
      ] as const;
      for (const { name, kind, bytes, type } of cases) {
        const part =
          kind === 'image'
            ? { type: 'image_url', image_url: { url: dataUrl(type, bytes) } }
            : { type: 'input_audio', input_audio: { data: Buffer.from(bytes).toString('base64'), format: type } };
        const chat = (model: string) => ({
          model,
          temperature: 0,
          max_tokens: 8,
          messages: [{ role: 'user', content: [part, { type: 'text', text: 'describe' }] }],
        });
        const pair = kind === 'image' ? 'inpage-test-vision' : 'inpage-test-audio';
        const actual = await page<ChatAnswer>('/v1/chat/completions', chat(pair));
        const expected = await native<ChatAnswer>(kind === 'image' ? vision : audio, '/v1/chat/completions', chat('m'));
        const cli = await mtmdCliText({
          name: `mtmd-cli-${kind}`,
          model: kind === 'image' ? buildInpageTestVisionModel() : buildInpageTestAudioModel(),
          projector: kind === 'image' ? buildInpageTestVisionProjector() : buildInpageTestAudioProjector(),
          media: { bytes, kind },
          prompt: 'describe',
          maxTokens: 8,
          args: ['-ctk', 'f32', '-ctv', 'f32', '-fa', 'off'],
        });
        assert.equal(actual.usage.completion_tokens, 8, name);
        assert.equal(actual.choices[0]?.message.content, cli, `${name}: llama-mtmd-cli`);
        assert.equal(actual.choices[0]?.message.content, expected.choices[0]?.message.content, `${name}: llama-server`);
      }
    },
  );

  test("WebP, which llama-server refuses, is read by the browser: llama-server's answer for a PNG of its pixels", async () => {
    // IMAGE's pixels, encoded in the page by Chromium as a lossless WebP (VP8L): quality 1.
    const webp = await encodedInPage(
      40,
      56,
      (x, y) => [(x * 6) & 255, (255 - y * 4) & 255, (x * y) % 256, 255],
      'image/webp',
    );
    assert.equal(webp.toString('latin1', 0, 4) + webp.toString('latin1', 8, 12), 'RIFFWEBP');
    const chunks: string[] = [];
    for (let at = 12; at + 8 <= webp.length; at += 8 + webp.readUInt32LE(at + 4) + (webp.readUInt32LE(at + 4) & 1))
      chunks.push(webp.toString('latin1', at, at + 4));
    assert.deepEqual(chunks, ['VP8X', 'ICCP', 'VP8L'], 'lossless (VP8L), with an sRGB profile the reader leaves alone');
    const refused = await fetch(`${vision.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(imageChat('m', dataUrl('image/webp', webp))),
    });
    assert.equal(refused.status, 400, 'llama-server 0.7.0 reads no WebP');
    await assertSameImageAnswer(vision, dataUrl('image/png', IMAGE), dataUrl('image/webp', webp), 'WebP');
    const completion = (data: string) => ({
      prompt: { prompt_string: 'what is in it? <__media__>say', multimodal_data: [data] },
      n_predict: 4,
      temperature: 0,
    });
    const marker = await fixture.page.evaluate(() =>
      fetch('/props?model=inpage-test-vision').then((r) => r.json() as Promise<{ media_marker: string }>),
    );
    const nativeMarker = await fetch(`${vision.baseURL.replace(/\/v1$/, '')}/props`).then(
      (r) => r.json() as Promise<{ media_marker: string }>,
    );
    const withMarker = (body: ReturnType<typeof completion>, m: string) => ({
      ...body,
      prompt: { ...body.prompt, prompt_string: body.prompt.prompt_string.replace('<__media__>', m) },
    });
    const theirs = await native<{ tokens: number[] }>(vision, '/completion', {
      ...withMarker(completion(Buffer.from(IMAGE).toString('base64')), nativeMarker.media_marker),
      return_tokens: true,
    });
    const ours = await page<{ tokens: number[] }>('/completion', {
      ...withMarker(completion(webp.toString('base64')), marker.media_marker),
      return_tokens: true,
      model: 'inpage-test-vision',
    });
    assert.deepEqual(ours.tokens, theirs.tokens, '/completion multimodal_data');
    const broken = Buffer.concat([webp.subarray(0, 16), Buffer.alloc(64, 7)]);
    const bad = await postFromPage(
      fixture.page,
      '/v1/chat/completions',
      imageChat('inpage-test-vision', dataUrl('image/webp', broken)),
    );
    assert.equal(bad.status, 400);
    assert.equal((bad.body as { error: { param: string } }).error.param, 'messages[0].content[1]');
    assert.match(
      JSON.stringify(bad.body),
      /could not be decoded as an image \(the browser could not read it as WebP\)/,
    );
  });

  test("generated JPEGs (the same bytes to both) and lossless WebPs with and without alpha (llama-server: a PNG of the pixels): llama-server's answers", async () => {
    const shapes = [
      [33, 47],
      [17, 90],
      [400, 300],
    ] as const;
    for (const [width, height] of shapes) {
      const color = (x: number, y: number) => [(x * 7) % 256, (y * 3) % 256, (x + 2 * y) % 256];
      const jpeg = await encodedInPage(width, height, (x, y) => [...color(x, y), 255], 'image/jpeg');
      assert.equal(jpeg.readUInt16BE(0), 0xffd8, 'a JPEG');
      await assertSameImageAnswer(
        vision,
        dataUrl('image/jpeg', jpeg),
        dataUrl('image/jpeg', jpeg),
        `JPEG ${width}x${height}`,
      );
      // Alpha 0 or 255: a canvas keeps no colour under alpha 0, so those pixels are black in the PNG.
      const opaque = (x: number, y: number) => (x + y) % 5 !== 0;
      const rgba = (x: number, y: number) => (opaque(x, y) ? [...color(x, y), 255] : [0, 0, 0, 0]);
      const webp = await encodedInPage(width, height, rgba, 'image/webp');
      const png = pngBytes(width, height, rgba, 4);
      const label = `WebP with alpha ${width}x${height}`;
      await assertSameImageAnswer(vision, dataUrl('image/png', png), dataUrl('image/webp', webp), label);
    }
  });

  test('bad media: 400 naming the part, JSON and SSE; the next answer is exact', async () => {
    const refusal = async (body: unknown) => {
      const answer = await postFromPage(fixture.page, '/v1/chat/completions', body);
      const error = (answer.body as { error: { message: string; param: string | null } }).error;
      return { status: answer.status, ...error };
    };
    const notImage = await refusal(imageChat('inpage-test-vision', dataUrl('image/png', Buffer.from('not a picture'))));
    assert.equal(notImage.status, 400);
    assert.equal(notImage.param, 'messages[0].content[1]');
    assert.match(notImage.message, /'messages\[0\]\.content\[1\]' could not be decoded as an image/);
    const streamedBad = await refusal({
      ...imageChat('inpage-test-vision', dataUrl('image/png', Buffer.from('not a picture'))),
      stream: true,
    });
    assert.equal(streamedBad.status, 400);
    assert.equal(streamedBad.param, 'messages[0].content[1]');
    const noAudio = await refusal(audioChat('inpage-test-vision'));
    assert.equal(noAudio.status, 400);
    assert.equal(noAudio.param, 'messages[0].content[0]');
    assert.match(noAudio.message, /^audio input is not supported/);
    const soundAsImage = await refusal(imageChat('inpage-test-vision', dataUrl('image/png', SOUND)));
    assert.equal(soundAsImage.status, 400);
    assert.match(soundAsImage.message, /'messages\[0\]\.content\[1\]' is audio, and this model takes no audio/);
    const noImages = await refusal(imageChat('inpage-test-audio'));
    assert.equal(noImages.status, 400);
    assert.match(noImages.message, /^image input is not supported/);
    const expected = await native<ChatAnswer>(vision, '/v1/chat/completions', imageChat('m'));
    assertSameChat(await page<ChatAnswer>('/v1/chat/completions', imageChat('inpage-test-vision')), expected, 'after');
  });
});
