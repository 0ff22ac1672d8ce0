import { describe, expect, it } from 'vitest';
import { buildInpageTestModel } from '../../../../src/builtin-model/inpage-test-model';
import { writeGguf, type GgufKv } from '../../../../src/builtin-model/gguf-writer';
import { validateLora } from '../../../../src/gguf/validate-lora';
import { buildInpageTestLoraAttn, buildInpageTestLoraBack } from '../../../fixtures/inpage-test-lora';

const str = (key: string, value: string): GgufKv => ({ key, value: { type: 'string', value } });
const adapter = (metadata: GgufKv[]) =>
  new Blob([
    writeGguf({
      metadata,
      tensors: [{ name: 'output.weight.lora_a', dims: [4, 1], data: new Float32Array(4) }],
    }),
  ]);

describe('validateLora', () => {
  it("passes the test adapters, with llama-server's task name and prompt prefix", async () => {
    expect(await validateLora(new Blob([buildInpageTestLoraBack()]))).toEqual({
      taskName: 'backwards',
      promptPrefix: 'Backwards: ',
    });
    expect(await validateLora(new Blob([buildInpageTestLoraAttn()]))).toEqual({
      taskName: 'attention',
      promptPrefix: '',
    });
    // Without the two keys: empty strings, as llama-server lists them.
    expect(await validateLora(adapter([str('general.type', 'adapter'), str('adapter.type', 'lora')]))).toEqual({
      taskName: '',
      promptPrefix: '',
    });
  });

  it('refuses a model, another adapter type, an activated LoRA, a truncated file and something else', async () => {
    await expect(validateLora(new Blob([buildInpageTestModel()]))).rejects.toThrow(
      /not an adapter: its general.type is missing/,
    );
    await expect(
      validateLora(adapter([str('general.type', 'adapter'), str('adapter.type', 'control_vector')])),
    ).rejects.toThrow(/adapter.type is 'control_vector', and only 'lora' is loaded/);
    const alora: GgufKv = {
      key: 'adapter.alora.invocation_tokens',
      value: { type: 'array', itemType: 'uint32', value: [1, 2] },
    };
    await expect(
      validateLora(adapter([str('general.type', 'adapter'), str('adapter.type', 'lora'), alora])),
    ).rejects.toThrow(/activated LoRA/);
    const bytes = buildInpageTestLoraBack();
    await expect(validateLora(new Blob([bytes.slice(0, bytes.length - 100)]))).rejects.toThrow();
    await expect(validateLora(new Blob(['<html>not found</html>']))).rejects.toThrow();
  });
});
