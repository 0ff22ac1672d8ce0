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
  it("posts the model's template source, what it renders, BOS/EOS texts and KV cache type", async () => {
    const source = '{% for m in messages %}{{ m.content }}{% endfor %}';
    const template = { source, bos_token: '<s>', eos_token: '</s>', origin: 'gguf' as const };
    const [result] = await posted(template, false, 'f32');
    expect(result).toMatchObject({
      type: 'props.result',
      chat_template: source,
      bos_token: '<s>',
      eos_token: '</s>',
      kv_cache_type: 'f32',
    });
    expect(result).toHaveProperty('chat_template_caps.supports_system_role', true);
    expect(result).toHaveProperty('chat_template_caps.supports_tools', false);
  });

  it('a model without a template (WebLLM renders conversations itself): empty strings, no caps, no cache type, no media marker; nothing once aborted', async () => {
    expect(await posted(null)).toEqual([
      {
        type: 'props.result',
        chat_template: '',
        chat_template_caps: null,
        bos_token: '',
        eos_token: '',
        kv_cache_type: null,
        media_marker: null,
      },
    ]);
    expect(await posted(null, true)).toEqual([]);
  });
});
