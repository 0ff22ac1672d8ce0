import { describe, expect, it } from 'vitest';
import type { LoadedModel } from '../../../../worker/engine/backend';
import { runProps } from '../../../../worker/engine/run-props';

/** Runs a props job on a model with `chatTemplate` and returns what it posted. */
async function posted(chatTemplate: LoadedModel['chatTemplate'], aborted = false): Promise<unknown[]> {
  const messages: unknown[] = [];
  const port = { postMessage: (data: unknown) => void messages.push(data) } as unknown as MessagePort;
  const model = { chatTemplate } as unknown as LoadedModel;
  const controller = new AbortController();
  if (aborted) controller.abort();
  await runProps(model, { model: 'm' }, port, controller.signal);
  return messages;
}

describe('runProps', () => {
  it("posts the model's template source and BOS/EOS texts", async () => {
    const template = { source: '{{ x }}', bos_token: '<s>', eos_token: '</s>' };
    expect(await posted(template)).toEqual([
      { type: 'props.result', chat_template: '{{ x }}', bos_token: '<s>', eos_token: '</s>' },
    ]);
  });

  it('a model without a template (WebLLM renders conversations itself): empty strings; nothing once aborted', async () => {
    expect(await posted(null)).toEqual([{ type: 'props.result', chat_template: '', bos_token: '', eos_token: '' }]);
    expect(await posted(null, true)).toEqual([]);
  });
});
