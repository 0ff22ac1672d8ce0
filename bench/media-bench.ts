/**
 * Image and audio encode time, in the page and in llama-server (issue 32): llama-server's
 * `/completion` with one medium at `/props`' `media_marker` (`${marker} describe`, one token,
 * greedy, no prompt cache), and the same request as text only (` describe`). The encode time is
 * the difference of their median wall times (bench/media-table.ts): the medium's decoding,
 * preprocessing, projector, and the model's prefill of its embeddings. In the page the requests
 * go through `fetch('/completion')` (the Service Worker, the engine's mtmd); natively, Debian's
 * llama-server `--mmproj` on the same generated pair, over HTTP from Node.
 */
import type { Page } from 'playwright';
import type { Harness } from '../test/e2e/harness';
import { modelInChroot, placeModel, startLlamaServer } from '../test/e2e/llama-server';
import { buildInpageTestAudioModel, buildInpageTestAudioProjector } from '../test/fixtures/inpage-test-audio';
import { buildInpageTestVisionModel, buildInpageTestVisionProjector } from '../test/fixtures/inpage-test-vision';
import { pngBytes, wavBytes } from '../test/fixtures/test-media';
import { emptySide, type MediaRow, type MediaSide } from './media-table';

/** A generated pair and its medium: a 64x64 PNG, or a 5 s 16 kHz WAV (mtmd pads it to 30 s, one Whisper chunk). */
export interface MediaPair {
  model: 'inpage-test-vision' | 'inpage-test-audio';
  medium: string;
  files: () => { model: Uint8Array; projector: Uint8Array };
  bytes: Uint8Array;
}

export const MEDIA_PAIRS: readonly MediaPair[] = [
  {
    model: 'inpage-test-vision',
    medium: 'image, 64x64 PNG',
    files: () => ({ model: buildInpageTestVisionModel(), projector: buildInpageTestVisionProjector() }),
    bytes: pngBytes(64, 64, (x, y) => [x * 4, 255 - y * 4, (x * y) % 256]),
  },
  {
    model: 'inpage-test-audio',
    medium: 'audio, 5 s WAV',
    files: () => ({ model: buildInpageTestAudioModel(), projector: buildInpageTestAudioProjector() }),
    bytes: wavBytes(5, (t) => 0.4 * Math.sin(2 * Math.PI * 330 * t) * Math.exp(-t / 2)),
  },
];

/** One answer, timed. */
interface Timed {
  ms: number;
  status: number;
  promptMs?: number;
  tokens?: number;
  error?: string;
}

/** A `/completion` answer that took `ms`: its prompt time and tokens, or its error. */
function timed({ ms, status, text }: { ms: number; status: number; text: string }): Timed {
  if (status < 200 || status > 299) return { ms, status, error: text.slice(0, 300) };
  const json = JSON.parse(text) as { timings?: { prompt_ms?: number }; tokens_evaluated?: number };
  return { ms, status, promptMs: json.timings?.prompt_ms, tokens: json.tokens_evaluated };
}

/** The two request bodies: with the medium at `marker`, and text only. */
function bodies(model: string, marker: string, base64: string) {
  const common = { model, n_predict: 1, temperature: 0, cache_prompt: false };
  return {
    media: { ...common, prompt: { prompt_string: `${marker} describe`, multimodal_data: [base64] } },
    text: { ...common, prompt: { prompt_string: ' describe' } },
  };
}

/** The side's marker and a timed `/completion`: from inside the page, or from Node to llama-server. */
interface Endpoint {
  marker(): Promise<string>;
  complete(body: Record<string, unknown>): Promise<Timed>;
}

function pageEndpoint(page: Page, model: string): Endpoint {
  return {
    marker: () =>
      page.evaluate(
        async (model) =>
          ((await (await fetch(`/props?model=${model}`)).json()) as { media_marker: string }).media_marker,
        model,
      ),
    complete: (body) =>
      page
        .evaluate(async (body) => {
          const start = performance.now();
          const response = await fetch('/completion', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          const text = await response.text();
          return { ms: performance.now() - start, status: response.status, text };
        }, body)
        .then(timed),
  };
}

function nativeEndpoint(base: string): Endpoint {
  return {
    marker: async () => ((await (await fetch(`${base}/props`)).json()) as { media_marker: string }).media_marker,
    async complete(body) {
      const start = performance.now();
      const response = await fetch(`${base}/completion`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      return timed({ ms: performance.now() - start, status: response.status, text });
    },
  };
}

/** A side ready to measure: its endpoint, the model name it answers to, and where its samples go. */
interface Measured {
  endpoint: Endpoint;
  model: string;
  side: MediaSide;
}

/** Times `body` on `on`, into its side's samples. */
async function sample(on: Measured, which: 'media' | 'text', body: Record<string, unknown>): Promise<void> {
  const timed = await on.endpoint.complete(body);
  if (timed.status !== 200) throw new Error(`${on.model}: /completion answered ${timed.status}: ${timed.error}`);
  const { side } = on;
  (which === 'media' ? side.mediaMs : side.textMs).push(timed.ms);
  if (timed.promptMs !== undefined) (which === 'media' ? side.mediaPromptMs : side.textPromptMs).push(timed.promptMs);
  if (which === 'media') side.mediaTokens = timed.tokens ?? 0;
  else side.textTokens = timed.tokens ?? 0;
}

/**
 * One warm-up of each request on each side, then `rounds` rounds, each of both requests on both
 * sides in an order that alternates: the two sides share every stretch of the machine's load.
 */
async function measure(sides: readonly Measured[], pair: MediaPair, rounds: number): Promise<void> {
  const base64 = Buffer.from(pair.bytes).toString('base64');
  const requests = await Promise.all(sides.map(async (on) => bodies(on.model, await on.endpoint.marker(), base64)));
  const steps = sides.flatMap((on, i) => (['media', 'text'] as const).map((which) => ({ on, which, i })));
  for (const { on, which, i } of steps) await on.endpoint.complete(requests[i]![which]);
  for (let round = 0; round < rounds; round++)
    for (const { on, which, i } of round % 2 === 0 ? steps : [...steps].reverse())
      await sample(on, which, requests[i]![which]);
}

/**
 * Both sides on `pair` at `threads`, measured together: the page at `&threads=N` (the preview
 * server isolates it, so it gets its threads; its model card says what it runs on), and
 * llama-server `--mmproj` with `-t N` after startLlamaServer's `-t 1` (the last one wins, which
 * its log's threadpool line confirms) and the engine's cache (F32, no flash attention).
 */
export async function benchMedia(
  harness: Harness,
  pair: MediaPair,
  threads: number,
  rounds: number,
): Promise<MediaRow> {
  const row: MediaRow = { model: pair.model, medium: pair.medium, threads, page: emptySide(), native: emptySide() };
  const name = `bench-${pair.model}`;
  const files = pair.files();
  placeModel(name, files.model);
  placeModel(`${name}.mmproj`, files.projector);
  const server = await startLlamaServer({
    model: name,
    args: ['--mmproj', modelInChroot(`${name}.mmproj`), '-ctk', 'f32', '-ctv', 'f32', '-fa', 'off', '-t', `${threads}`],
  });
  try {
    row.native.threads = server.log().match(/threadpool init, n_threads = (\d+)/)?.[1] ?? '?';
    if (row.native.threads !== String(threads))
      throw new Error(`llama-server -t ${threads} runs on ${row.native.threads} threads:\n${server.log()}`);
    const { context, page } = await harness.openPage(`/?model=${pair.model}&threads=${threads}`);
    try {
      const card = await page.evaluate(async () => {
        const list = (await (await fetch('/v1/models')).json()) as {
          data: Array<{ threads?: { prefill: number; decode: number } }>;
        };
        return list.data[0]?.threads;
      });
      row.page.threads = card ? `${card.prefill}/${card.decode}` : '?';
      const native = nativeEndpoint(server.baseURL.replace(/\/v1$/, ''));
      await measure(
        [
          { endpoint: pageEndpoint(page, pair.model), model: pair.model, side: row.page },
          { endpoint: native, model: name, side: row.native },
        ],
        pair,
        rounds,
      );
    } finally {
      await context.close();
    }
  } finally {
    await server.stop();
  }
  return row;
}
