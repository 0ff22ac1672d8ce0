/**
 * A model `npm run build` writes to `dist/models/` (`inpage-test-qwen3`, say) for a spec against
 * llama-server: placed for llama-server, loaded in the fixture's page, and llama-server started
 * on it before the tests; stopped after.
 */
import { readFile } from 'node:fs/promises';
import { after, before } from 'node:test';
import { placeModel, startLlamaServer, type LlamaServer } from './llama-server';
import type { PageFixture } from './page-fixture';

/** In a `describe`: the running llama-server (throws before `before()` ran). */
export function useBuiltModelServer(fixture: PageFixture, model: string): { readonly server: LlamaServer } {
  let server: LlamaServer | undefined;
  before(async () => {
    placeModel(model, new Uint8Array(await readFile(`dist/models/${model}.gguf`)));
    await fixture.page.evaluate((url) => window.inpage.load(url), `/models/${model}.gguf`);
    server = await startLlamaServer({ model });
  });
  after(async () => {
    await server?.stop();
  });
  return {
    get server() {
      if (!server) throw new Error('llama-server starts in before()');
      return server;
    },
  };
}
