import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../../demo/catalogue';
import { describeEntry } from '../../../demo/describe-entry';
import { DEFAULT_PARAMS, toRequestBody } from '../../../demo/request-body';
import { runStats } from '../../../demo/run-stats';

describe('runStats', () => {
  it('measures prefill (prompt tokens ÷ time to first token) and decode (later tokens ÷ their time) apart', () => {
    const stats = runStats({ started: 1000, first: 1050, last: 1250, promptTokens: 100, tokens: 5, exact: true });
    expect(stats).toEqual({
      ttftMs: 50,
      promptTokens: 100,
      tokens: 5,
      prefillTokensPerSecond: 2000,
      decodeTokensPerSecond: 20,
      exact: true,
    });
  });

  it('says nothing it cannot measure: no usage yet, one token, a non-streamed body', () => {
    expect(runStats({ started: 0, first: 10, last: 10, promptTokens: null, tokens: 1, exact: false })).toMatchObject({
      prefillTokensPerSecond: null,
      decodeTokensPerSecond: null,
    });
    expect(runStats({ started: 0, first: null, last: 500, promptTokens: 3, tokens: 5, exact: true })).toMatchObject({
      ttftMs: null,
      prefillTokensPerSecond: null,
      decodeTokensPerSecond: null,
    });
  });
});

describe('the picker and the form', () => {
  it('says "no download" once for the built-in model, and cache state for downloads', () => {
    const [builtin, webllm] = CATALOGUE;
    if (!builtin || !webllm) throw new Error('catalogue');
    const text = describeEntry(builtin, true, true);
    expect(text.match(/no download/g)).toHaveLength(1);
    expect(text).toBe('inpage-test: built-in test model · llamacpp · built in, no download, works offline');
    expect(describeEntry(webllm, false, false)).toMatch(/ · webllm · 290\.0 MB download, not cached · needs WebGPU$/);
    expect(builtin.promptNote).toMatch(/abc → defgh/);
  });

  it("sends top_p only when it is not the API's default, like the README's snippet", () => {
    expect(toRequestBody('m', DEFAULT_PARAMS)).not.toHaveProperty('top_p');
    expect(toRequestBody('m', { ...DEFAULT_PARAMS, topP: 0.9 }).top_p).toBe(0.9);
  });
});
