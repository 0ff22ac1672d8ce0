/**
 * `npm run build && npx tsx scripts/screenshot-playground.ts`: takes docs/playground.png (the
 * README's picture) in headless Chromium through the e2e harness: the built-in model, a
 * streamed greedy completion of `abc`, its numbers and its code; then docs/playground-chat.png:
 * the Chat tab after two turns, with the chat code. Prints the page's console warnings, so a
 * noisy start shows up here too.
 */
import { startHarness } from '../test/e2e/harness';

const OUT = process.argv[2] ?? 'docs/playground.png';
const CHAT_OUT = OUT.replace(/\.png$/, '-chat.png');

const harness = await startHarness();
try {
  const { page } = await harness.openPage('/?model=inpage-test');
  const messages: string[] = [];
  page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
  await page.reload();
  await page.evaluate(() => window.inpage.ready);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.locator('model-picker td', { hasText: 'ready' }).waitFor();
  await page.locator('#prompt').fill('abc');
  await page.locator('#max_tokens').fill('48');
  // The second run is the one shown: the first warms the engine (wasm tier-up, caches).
  for (const run of [1, 2]) {
    await page.locator('#generate').click();
    await page.locator('#run-status').filter({ hasText: /Done/ }).waitFor({ timeout: 30_000 });
    if (run === 1) await page.locator('#generate').and(page.locator(':enabled')).waitFor();
  }
  await page.locator('#generate').focus();
  await page.screenshot({ path: OUT, fullPage: true });
  console.log(`wrote ${OUT}`);
  await page.locator('#tab-chat').click();
  await page.locator('#max_tokens').fill('8');
  for (const message of ['abc', 'x']) {
    await page.locator('#chat-input').fill(message);
    await page.locator('#chat-input').press('Enter');
    await page.locator('#chat-status').filter({ hasText: /Done/ }).waitFor({ timeout: 30_000 });
  }
  await page.locator('#chat-input').focus();
  await page.screenshot({ path: CHAT_OUT, fullPage: true });
  console.log(`wrote ${CHAT_OUT}`);
  for (const message of messages.filter((text) => !text.startsWith('log:'))) console.log(`  page ${message}`);
} finally {
  await harness.close();
}
