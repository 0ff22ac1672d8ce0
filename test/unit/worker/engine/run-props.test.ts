import { describe, expect, it } from 'vitest';
import type { LoadedModel } from '../../../../worker/engine/backend';
import { runProps } from '../../../../worker/engine/run-props';

/** Runs a props job on a model with `chatTemplate` (and `kvCacheType`) and returns what it posted. */
async function posted(
  chatTemplate: LoadedModel['chatTemplate'],
  aborted = false,
  kvCacheType?: LoadedModel['kvCacheType'],
): Promise<unknown[]> {
  const messages: unknown[] = [];
  const port = { postMessage: (data: unknown) => void messages.push(data) } as unknown as MessagePort;
  const model = { chatTemplate, kvCacheType } as unknown as LoadedModel;
  const controller = new AbortController();
  if (aborted) controller.abort();
  await runProps(model, { model: 'm' }, port, controller.signal);
  return messages;
}

describe('runProps', () => {
  it("posts the model's template source, BOS/EOS texts and KV cache type", async () => {
    const template = { source: '{{ x }}', bos_token: '<s>', eos_token: '</s>' };
    expect(await posted(template, false, 'f32')).toEqual([
      { type: 'props.result', chat_template: '{{ x }}', bos_token: '<s>', eos_token: '</s>', kv_cache_type: 'f32' },
    ]);
  });

  it('a model without a template (WebLLM renders conversations itself): empty strings, no cache type; nothing once aborted', async () => {
    expect(await posted(null)).toEqual([
      { type: 'props.result', chat_template: '', bos_token: '', eos_token: '', kv_cache_type: null },
    ]);
    expect(await posted(null, true)).toEqual([]);
  });
});
