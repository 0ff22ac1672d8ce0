/** The usual spec set-up: one harness and one ready page for the whole file. */
import { after, before } from 'node:test';
import type { Page } from 'playwright';
import { startHarness, type Harness } from './harness';

export interface PageFixture {
  readonly harness: Harness;
  readonly page: Page;
}

/**
 * Registers `before`/`after` hooks that open `path` once the runtime is ready, and close it all.
 * `setup` runs on the page before any test (e.g. to load a client SDK's script).
 */
export function usePage(path = '/?model=inpage-test', setup?: (page: Page) => Promise<void>): PageFixture {
  let harness: Harness | undefined;
  let page: Page | undefined;
  before(async () => {
    harness = await startHarness();
    ({ page } = await harness.openPage(path));
    await setup?.(page);
  });
  after(() => harness?.close());
  return {
    get harness() {
      if (!harness) throw new Error('the harness starts in before()');
      return harness;
    },
    get page() {
      if (!page) throw new Error('the page opens in before()');
      return page;
    },
  };
}
