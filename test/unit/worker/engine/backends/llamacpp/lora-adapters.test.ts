import { describe, expect, it } from 'vitest';
import type { LoraAdapterInfo } from '../../../../../../src/core/domain/lora';
import { LoraAdapters } from '../../../../../../worker/engine/backends/llamacpp/lora-adapters';

const info = (id: number, scale: number): LoraAdapterInfo => ({
  id,
  path: `https://example.test/a${id}.gguf`,
  scale,
  task_name: '',
  prompt_prefix: '',
});

describe('LoraAdapters', () => {
  it("runs a request at its own scales (the others 0), else at the model's, which POST sets", () => {
    const lora = new LoraAdapters([info(0, 1), info(1, 0.5)]);
    expect(lora.scalesFor([])).toEqual([1, 0.5]);
    expect(lora.scalesFor([{ id: 1, scale: 2 }])).toEqual([0, 2]);
    expect(() => lora.scalesFor([{ id: 2, scale: 1 }])).toThrow(/names LoRA adapter 2/);
    lora.setOwn([{ id: 1, scale: 0.25 }]);
    expect(lora.scalesFor([])).toEqual([0, 0.25]);
    expect(lora.list().map((adapter) => adapter.scale)).toEqual([0, 0.25]);
    expect(() => lora.setOwn([{ id: 5, scale: 1 }])).toThrow(/'id' names LoRA adapter 5/);
  });

  it("sets scales on the engine only when they change, and keeps a slot's cells only at the scales they were made at", () => {
    const lora = new LoraAdapters([info(0, 1)]);
    const applied: number[][] = [];
    const apply = (scales: readonly number[]) => applied.push([...scales]);
    // The cells made at load (the first evaluation) are at scale 0.
    expect(lora.use(0, [0], apply)).toBe(true);
    expect(applied).toEqual([]);
    expect(lora.use(0, [1], apply)).toBe(false);
    expect(lora.use(0, [1], apply)).toBe(true);
    expect(lora.use(1, [1], apply)).toBe(false);
    expect(applied).toEqual([[1]]);
    expect(lora.use(1, [0.5], apply)).toBe(false);
    expect(lora.use(0, [0.5], apply)).toBe(false);
    expect(applied).toEqual([[1], [0.5]]);
    expect(lora.group([1, 0])).not.toBe(lora.group([0, 1]));
  });

  it("puts the model's scales on the embedding context apart from the generation context's", () => {
    const lora = new LoraAdapters([info(0, 1)]);
    const generation: number[][] = [];
    const embedding: number[][] = [];
    lora.use(0, [0.5], (scales) => generation.push([...scales]));
    lora.useOwn((scales) => embedding.push([...scales]));
    lora.useOwn((scales) => embedding.push([...scales]));
    expect(generation).toEqual([[0.5]]);
    expect(embedding).toEqual([[1]]);
  });

  it("lets the prompt cache keep states at the load's scales only, whatever POST sets later", () => {
    const lora = new LoraAdapters([info(0, 1), info(1, 0)]);
    expect(lora.savesAt(lora.scalesFor([]))).toBe(true);
    expect(lora.savesAt(lora.scalesFor([{ id: 0, scale: 1 }]))).toBe(true);
    expect(lora.savesAt(lora.scalesFor([{ id: 1, scale: 1 }]))).toBe(false);
    lora.setOwn([{ id: 0, scale: 0.5 }]);
    expect(lora.savesAt(lora.scalesFor([]))).toBe(false);
    expect(lora.loadScales).toEqual([1, 0]);
  });

  it('does nothing without adapters', () => {
    const lora = new LoraAdapters();
    expect(lora.count).toBe(0);
    expect(lora.use(0, [], () => expect.unreachable())).toBe(true);
    lora.useOwn(() => expect.unreachable());
    expect(lora.scalesFor([])).toEqual([]);
    expect(() => lora.scalesFor([{ id: 0, scale: 1 }])).toThrow(/has none loaded/);
  });
});
