/**
 * llama.cpp's own web client, SimpleChat (the files Debian's llama.cpp-tools ships in
 * /usr/share/llama.cpp/llama-server/simplechat-legacy-ui/, taken from the llama-server chroot),
 * served from the drop-in site's origin in a second tab and pointed at the endpoint by its
 * Settings (BaseURL = origin + /v1). It sends `model: "gpt-3.5-turbo"`, `max_tokens` and
 * `n_predict` both, and `cache_prompt`: the page's route table sends `*` to the device, and
 * `n_predict` (set to 5 here, with its `max_tokens` left at 1024) wins, as in llama-server. Chat
 * and completion mode, streamed and not, driven by clicks; the text is `inpage-test`'s exact
 * answer to 'abc'. Skipped where the chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright';
import { SERVER_CHROOT, serverSkip } from './llama-server';
import { readmeSnippet } from './readme-snippet';
import { startStaticSite, type StaticSite } from './static-site';
import { makeTempApp, type TempApp } from './temp-app';

const SIMPLECHAT = `${SERVER_CHROOT}/usr/share/llama.cpp/llama-server/simplechat-legacy-ui`;

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

describe('SimpleChat against the endpoint', { skip: skip ?? false }, () => {
  let app: TempApp;
  let site: StaticSite;
  let context: BrowserContext;
  let chat: Page;
  const dialogs: string[] = [];

  before(async () => {
    app = await makeTempApp();
    await app.sh(readmeSnippet('init-dropin'));
    const publicDir = join(app.dir, 'public');
    await writeFile(join(publicDir, 'routes.json'), JSON.stringify({ routes: { '*': { targets: ['device'] } } }));
    await writeFile(
      join(publicDir, 'index.html'),
      '<!doctype html><script src="/inpage-llm.js" data-model="inpage-test" data-routes="/routes.json"></script>',
    );
    await cp(SIMPLECHAT, join(publicDir, 'simplechat'), { recursive: true });
    site = await startStaticSite(publicDir);
    ({ context } = await site.openPage('/'));
    // The second tab runs no engine: its requests go to the first tab's.
    chat = await context.newPage();
    chat.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await chat.goto(`${site.origin}/simplechat/index.html`);
    await chat.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await setSettings(chat, site.origin);
  });

  after(async () => {
    await site?.close();
    await app?.remove();
  });

  /** Opens Settings and sets BaseURL, temperature 0 and n_predict 5 (its max_tokens stays 1024). */
  async function setSettings(page: Page, origin: string): Promise<void> {
    await page.click('#settings');
    for (const [id, value] of [
      ['#SetBaseURL', `${origin}/v1`],
      ['#Settemperature', '0'],
      ['#Setn_predict', '5'],
    ] as const) {
      await page.fill(id, value);
      await page.dispatchEvent(id, 'change');
    }
  }

  /** Picks the mode and streaming in Settings, submits 'abc', and returns the assistant's text. */
  async function ask(mode: 'Chat' | 'Completion', stream: boolean): Promise<string> {
    await chat.click('#settings');
    await chat.selectOption('#SetApiEP', mode);
    // Each question alone (no earlier turns in the prompt).
    await chat.selectOption('#SetChatHistoryInCtxt', 'Last0');
    const streaming = await chat.evaluate(() => Reflect.get(Reflect.get(document, 'gMe') ?? {}, 'bStream') === true);
    if (streaming !== stream) await chat.click('#SetStream');
    await chat.fill('#user-in', 'abc');
    await chat.click('#user-btn');
    await chat.waitForFunction(() => !document.querySelector<HTMLTextAreaElement>('#user-in')?.disabled, null, {
      timeout: 60_000,
    });
    const answers = await chat.locator('.role-assistant').allInnerTexts();
    assert.deepEqual(dialogs, []);
    return answers.at(-1) ?? '';
  }

  for (const mode of ['Chat', 'Completion'] as const) {
    for (const stream of [true, false]) {
      test(`${mode} mode, ${stream ? 'streamed' : 'one shot'}: the exact text`, async () => {
        assert.equal(await ask(mode, stream), 'assistant: defgh');
      });
    }
  }
});
