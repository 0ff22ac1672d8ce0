import { describe, expect, it } from 'vitest';
import { describeLastUsed, describeSize, describeState, describeUsage } from '../../../demo/describe-storage';
import type { StoredModelInfo } from '../../../src/index';

const model = (fields: Partial<StoredModelInfo>): StoredModelInfo => ({
  id: 'x',
  source: '/x.gguf',
  bytes: 6_178_816,
  totalBytes: 6_178_816,
  parts: 1,
  complete: true,
  lastUsed: 0,
  created: 0,
  ...fields,
});

describe('the stored models panel', () => {
  it('a complete model: its size and state; a partial one: how far, of how much', () => {
    expect(describeSize(model({}))).toBe('5.9 MB');
    expect(describeState(model({}))).toBe('complete');
    const partial = model({ bytes: 1024 ** 2, complete: false });
    expect(describeSize(partial)).toBe('1.0 MB of 5.9 MB');
    expect(describeState(partial)).toBe('partial');
    expect(describeSize(model({ bytes: 2048, totalBytes: null, complete: false }))).toBe('2 KB');
  });

  it('last used: empty when unknown', () => {
    expect(describeLastUsed(model({}))).toBe('');
    expect(describeLastUsed(model({ lastUsed: Date.UTC(2026, 0, 2) }))).toBe(
      new Date(Date.UTC(2026, 0, 2)).toLocaleString(),
    );
  });

  it('the usage line: models, the origin against its quota, persistence', () => {
    expect(
      describeUsage({
        bytes: 6_178_816,
        models: 1,
        estimate: { usage: 10 * 1024 ** 2, quota: 2 * 1024 ** 3 },
        persisted: false,
      }),
    ).toBe('5.9 MB in 1 model · 10.0 MB of 2.00 GB used by this origin · not persistent (may be evicted)');
    expect(describeUsage({ bytes: 0, models: 0, estimate: {}, persisted: true })).toBe('0 B in 0 models · persistent');
  });
});
