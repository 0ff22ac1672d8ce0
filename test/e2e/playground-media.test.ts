import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdir } from 'node:fs/promises';
import { gradientPng, wavBytes } from '../fixtures/test-media';
import { usePage } from './page-fixture';
import { axeViolations } from './page-helpers';

// The playground's Chat tab with images (issue 32): a PNG picked with the Attach button shows in
// the message box's list and, once sent, in the transcript; the answer comes back (a 200); the
// code panel's chat request has the image_url part, its base64 shortened. A WAV dropped on the
// message box on the audio model goes as input_audio. A text-only model offers no Attach.
// Screenshots under test-results/playground-media/.
const SHOTS = 'test-results/playground-media';
const fixture = usePage('/?model=inpage-test-vision');

const IMAGE = gradientPng();

test('chat: a picked PNG goes with the message, shows in the transcript and in the code; the model answers', async () => {
  const { page } = fixture;
  await page.locator('#tab-chat').click();
  const attach = page.locator('#chat-attach-button');
  await attach.and(page.locator(':enabled')).waitFor({ timeout: 15_000 });
  assert.match((await attach.getAttribute('title')) ?? '', /Pick or drop images/);

  await page.locator('#chat-attach').setInputFiles({ name: 'pattern.png', mimeType: 'image/png', buffer: IMAGE });
  const pending = page.locator('chat-attachments #attachments li');
  await pending.waitFor();
  assert.equal(await pending.locator('img').getAttribute('alt'), 'pattern.png');
  assert.match((await pending.locator('img').getAttribute('src')) ?? '', /^data:image\/png;base64,iVBORw0KGgo/);

  // The pending request's code: an image_url part, shortened for display, still valid code.
  const code = (await page.locator('#code').textContent()) ?? '';
  assert.match(code, /"type": "image_url"/);
  assert.match(code, /"url": "data:image\/png;base64,iVBORw0KGgo[A-Za-z0-9+/]{21}…"/);
  assert.match(await page.locator('#code-media-note').innerText(), /shortened/);

  // Remove and pick again: the list follows.
  await page.locator('chat-attachments button[aria-label="Remove pattern.png"]').click();
  assert.equal(await pending.count(), 0);
  await page.locator('#chat-attach').setInputFiles({ name: 'pattern.png', mimeType: 'image/png', buffer: IMAGE });
  await pending.waitFor();
  assert.deepEqual(await axeViolations(page), []);

  await page.locator('#max_tokens').fill('8');
  await page.locator('#chat-input').fill('Describe the image.');
  const response = page.waitForResponse((res) => res.url().endsWith('/v1/chat/completions'));
  await page.locator('#chat-send').click();
  assert.equal((await response).status(), 200);
  await page
    .locator('#chat-status')
    .filter({ hasText: /Done: finish_reason/ })
    .waitFor({ timeout: 60_000 });

  const user = page.locator('chat-transcript li[data-role="user"]');
  assert.equal(await user.locator('.content').textContent(), 'Describe the image.');
  assert.equal(await user.locator('img').getAttribute('alt'), 'pattern.png');
  const answer = (await page.locator('chat-transcript li[data-role="assistant"] .content').textContent()) ?? '';
  assert.ok(answer.length > 0, 'the assistant answers');
  assert.equal(await pending.count(), 0, 'the attachments went with the message');
  const sent = (await page.locator('#code').textContent()) ?? '';
  assert.match(sent, /openai\.chat\.completions\.create\(/);
  assert.match(sent, /"image_url"/);
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/image.png`, fullPage: true });
  assert.deepEqual(await axeViolations(page), []);
});

test('chat: a WAV dropped on the message box goes as input_audio and shows as an audio control', async () => {
  const { page } = await fixture.harness.openPage('/?model=inpage-test-audio');
  await page.locator('#tab-chat').click();
  await page.locator('#chat-attach-button:enabled').waitFor({ timeout: 15_000 });
  const wav = [...wavBytes(1, (t) => Math.sin(2 * Math.PI * 440 * t) / 2)];
  const dataTransfer = await page.evaluateHandle((bytes) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(bytes)], 'tone.wav', { type: 'audio/wav' }));
    return transfer;
  }, wav);
  await page.locator('#chat-input').dispatchEvent('drop', { dataTransfer });
  await page.locator('chat-attachments #attachments audio[aria-label="tone.wav"]').waitFor();
  const code = (await page.locator('#code').textContent()) ?? '';
  assert.match(code, /"input_audio": \{\s*"data": "UklGR[A-Za-z0-9+/]{27}…",\s*"format": "wav"\s*\}/);

  await page.locator('#max_tokens').fill('8');
  await page.locator('#chat-input').fill('What is this sound?');
  await page.locator('#chat-send').click();
  await page
    .locator('#chat-status')
    .filter({ hasText: /Done: finish_reason/ })
    .waitFor({ timeout: 60_000 });
  const user = page.locator('chat-transcript li[data-role="user"]');
  assert.equal(await user.locator('audio').getAttribute('aria-label'), 'tone.wav');
  assert.match((await user.locator('audio').getAttribute('src')) ?? '', /^data:audio\/wav;base64,UklGR/);
  assert.ok(
    ((await page.locator('chat-transcript li[data-role="assistant"] .content').textContent()) ?? '').length > 0,
  );
  await page.screenshot({ path: `${SHOTS}/audio.png`, fullPage: true });
  await page.close();
});

test('chat: a text-only model disables Attach, saying so', async () => {
  const { page } = await fixture.harness.openPage('/?model=inpage-test');
  await page.locator('#tab-chat').click();
  const attach = page.locator('#chat-attach-button');
  await page.locator('model-picker td', { hasText: 'ready' }).waitFor();
  assert.equal(await attach.isDisabled(), true);
  assert.equal(await attach.getAttribute('title'), 'This model takes text only.');
  assert.equal(await page.locator('#attach-hint').innerText(), 'This model takes text only.');
  await page.close();
});
