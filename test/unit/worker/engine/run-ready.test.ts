import { describe, expect, it } from 'vitest';
import type { LoadedModel } from '../../../../worker/engine/backend';
import { runReady } from '../../../../worker/engine/run-ready';

/** Runs a ready job for `m` on a model that fails any backend call, and returns what it posted. */
async function posted(aborted = false): Promise<unknown[]> {
  const messages: unknown[] = [];
  const port = { postMessage: (data: unknown) => void messages.push(data) } as unknown as MessagePort;
  // Every member throws when touched: the readiness answer asks nothing of the backend.
  const model = new Proxy({}, { get: () => expect.unreachable('the ready job touched the model') });
  const controller = new AbortController();
  if (aborted) controller.abort();
  const counts = await runReady(model as LoadedModel, { model: 'm' }, port, controller.signal);
  expect(counts).toEqual({ prompt: 0, completion: 0 });
  return messages;
}

describe('runReady', () => {
  it("answers with the loaded model's id, touching nothing of the backend", async () => {
    expect(await posted()).toEqual([{ type: 'ready.result', model: 'm' }]);
  });

  it('posts nothing once aborted', async () => {
    expect(await posted(true)).toEqual([]);
  });
});
