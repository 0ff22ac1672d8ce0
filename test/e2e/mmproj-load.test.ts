/**
 * Loading a multimodal projector beside a model (issue 32, item 2: llama-server's `--mmproj`):
 * the playground's `?model=inpage-test-vision` finds its projector beside the model in
 * dist/models, and `/props` and the model's card say which modalities it takes, with a media
 * marker of llama-server's shape; a spec's `mmproj` loads the audio pair; a projector made for
 * another model fails the load (503 `model_load_failed`), naming both, and the page's model still
 * answers.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { usePage } from './page-fixture';
import { completeFromPage } from './page-helpers';

const fixture = usePage('/?model=inpage-test-vision');

interface Props {
  modalities: { vision: boolean; video: boolean; audio: boolean };
  media_marker?: string;
}

const props = (model: string) =>
  fixture.page.evaluate(
    (name) => fetch(`/props?model=${encodeURIComponent(name)}`).then((r) => r.json() as Promise<Props>),
    model,
  );

/** Loads a pair by its URLs in dist/models; the card, or the failure's message and code. */
const loadPair = (id: string, model: string, projector: string) =>
  fixture.page.evaluate(
    async ({ id, model, projector }) => {
      const url = (name: string) => new URL(`/models/${name}.gguf`, location.href).href;
      try {
        const card = await window.inpage.load({
          id,
          backend: 'llamacpp',
          source: { kind: 'url', url: url(model) },
          mmproj: { id: projector, source: { kind: 'url', url: url(projector) } },
        });
        return {
          card: card as {
            mmproj?: string;
            mmproj_accelerator?: string;
            modalities?: { vision: boolean; audio: boolean };
          },
        };
      } catch (error) {
        return { message: String((error as Error).message), code: (error as { code?: string }).code ?? null };
      }
    },
    { id, model, projector },
  );

describe('a projector beside its model', () => {
  test('?model=inpage-test-vision loads its projector: /props says vision, with a media marker', async () => {
    const answer = await props('inpage-test-vision');
    assert.deepEqual(answer.modalities, { vision: true, video: false, audio: false });
    assert.match(answer.media_marker ?? '', /^<__media_[A-Za-z0-9]{32}__>$/);
    const text = await completeFromPage<{ content: string }>(fixture.page, {
      model: 'inpage-test-vision',
      prompt: 'describe',
      n_predict: 4,
      temperature: 0,
    });
    assert.equal(typeof text.content, 'string');
  });

  test("a spec's mmproj loads the audio pair; its card names the projector and says audio", async () => {
    const result = await loadPair('audio-pair', 'inpage-test-audio', 'inpage-test-audio.mmproj');
    const { card } = result;
    assert.ok(card, JSON.stringify(result));
    assert.equal(card.mmproj, 'inpage-test-audio.mmproj');
    assert.equal(card.mmproj_accelerator, 'cpu');
    assert.deepEqual(card.modalities, { vision: false, audio: true });
    assert.deepEqual((await props('audio-pair')).modalities, { vision: false, video: false, audio: true });
  });

  test('a projector made for another model fails the load, naming both; the page still answers', async () => {
    const result = await loadPair('vision-with-audio-projector', 'inpage-test-vision', 'inpage-test-audio.mmproj');
    assert.ok('code' in result, JSON.stringify(result));
    assert.equal(result.code, 'model_load_failed');
    assert.match(
      result.message,
      /projector 'inpage-test-audio\.mmproj' cannot be loaded for 'vision-with-audio-projector'.*n_embd = 128.*n_embd = 64/,
    );
    const text = await completeFromPage<{ tokens: number[] }>(fixture.page, {
      model: 'inpage-test-vision',
      prompt: 'abc',
      n_predict: 3,
      temperature: 0,
      return_tokens: true,
    });
    assert.equal(text.tokens.length, 3);
  });
});
