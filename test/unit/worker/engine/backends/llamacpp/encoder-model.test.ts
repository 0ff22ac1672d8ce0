/** Encoders: which models cannot generate, and the context a learned position table allows. */
import { describe, expect, it } from 'vitest';
import type { GgufValue } from '../../../../../../src/gguf/read-gguf-header';
import { fitPositions, isEncoder } from '../../../../../../worker/engine/backends/llamacpp/encoder-model';

const meta = (entries: Record<string, GgufValue>) => new Map(Object.entries(entries));

describe('isEncoder', () => {
  it('is true only where the architecture says its attention is not causal', () => {
    expect(isEncoder(meta({ 'general.architecture': 'bert', 'bert.attention.causal': false }))).toBe(true);
    expect(isEncoder(meta({ 'general.architecture': 'qwen3', 'qwen3.attention.causal': true }))).toBe(false);
    expect(isEncoder(meta({ 'general.architecture': 'llama' }))).toBe(false);
    expect(isEncoder(meta({ 'general.architecture': 'llama', 'bert.attention.causal': false }))).toBe(false);
  });
});

describe('fitPositions', () => {
  const bert = meta({ 'general.architecture': 'bert', 'bert.context_length': 512 });
  const table = [{ name: 'position_embd.weight', dims: [64, 512] }];

  it('stops a model with a learned position table at its rows, and leaves shorter contexts', () => {
    expect(fitPositions(4096, table, bert)).toBe(512);
    expect(fitPositions(256, table, bert)).toBe(256);
    expect(fitPositions(4096, [{ name: 'position_embd.weight', dims: [64, 300] }], bert)).toBe(300);
  });

  it('leaves models without one (rotary positions) at what was asked, past their trained context too', () => {
    expect(fitPositions(8192, [{ name: 'token_embd.weight', dims: [64, 100] }], bert)).toBe(8192);
  });
});
