/**
 * The WebLLM context: loaded with a KV window one short of the served context, so that WebLLM's
 * own stop (on the token sampled once the cache is full) lands at prompt + completion = n_ctx, as
 * llama-server's does; WebLLM's own window where nothing says one (a sliding window).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT, webllmContext } from '../../../../../../worker/engine/backends/webllm/context-window';

describe('webllmContext', () => {
  it("the spec's context wins; the window is one short of it", () => {
    expect(webllmContext(256, 4096)).toEqual({ contextLength: 256, window: 255 });
  });
  it("without one, the model's configured window is the context", () => {
    expect(webllmContext(undefined, 4096)).toEqual({ contextLength: 4096, window: 4095 });
  });
  it("a sliding window or an unknown one: WebLLM's own, and the default reported", () => {
    expect(webllmContext(undefined, -1)).toEqual({ contextLength: DEFAULT_CONTEXT, window: null });
  });
});
