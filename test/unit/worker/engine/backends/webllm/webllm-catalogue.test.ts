import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { catalogueCards } from '../../../../../../worker/engine/backends/webllm/catalogue';
import { needsShaderF16 } from '../../../../../../worker/engine/backends/webllm/records';

const records = prebuiltAppConfig.model_list;
const QWEN16 = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
const QWEN32 = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';

describe('catalogueCards (WebLLM prebuilt catalogue as /v1/models cards)', () => {
  it('without shader-f16 lists no f16 build, but the f32 twins (SwiftShader-like adapter)', () => {
    const cards = catalogueCards(records, { features: new Set() }, new Set());
    const ids = new Set(cards.map((card) => card.id));
    expect(ids.has(QWEN32)).toBe(true);
    expect(ids.has(QWEN16)).toBe(false);
    expect(cards.every((card) => !needsShaderF16(records.find((record) => record.model_id === card.id)!))).toBe(true);
  });

  it('with shader-f16 lists both; cards are available, webllm, with VRAM and cached flags', () => {
    const cards = catalogueCards(records, { features: new Set(['shader-f16']) }, new Set([QWEN16]));
    const qwen = cards.find((card) => card.id === QWEN16);
    expect(qwen).toMatchObject({
      object: 'model',
      backend: 'webllm',
      status: 'available',
      owned_by: 'mlc-ai',
      cached: true,
    });
    expect(qwen?.vram_required_mb).toBeGreaterThan(100);
    expect(cards.find((card) => card.id === QWEN32)?.cached).toBe(false);
    expect(cards.length).toBeGreaterThan(catalogueCards(records, { features: new Set() }, new Set()).length);
  });
});
