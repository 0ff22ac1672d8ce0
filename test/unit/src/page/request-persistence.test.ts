import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.resetModules();
});

/** A fresh module each time: it warns once per page. */
const load = async () => (await import('../../../../src/page/request-persistence')).requestPersistence;

describe('requestPersistence (the persist option)', () => {
  it('asks navigator.storage.persist() and says nothing when granted', async () => {
    const persist = vi.fn(async () => true);
    vi.stubGlobal('navigator', { storage: { persist } });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await (await load())()).toBe(true);
    expect(persist).toHaveBeenCalledOnce();
    expect(warn).not.toHaveBeenCalled();
  });

  it('a refusal, or no StorageManager, warns once and is not an error', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const requestPersistence = await load();
    vi.stubGlobal('navigator', { storage: { persist: async () => false } });
    expect(await requestPersistence()).toBe(false);
    vi.stubGlobal('navigator', {});
    expect(await requestPersistence()).toBe(false);
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]?.[0]).toMatch(/did not grant persistent storage/);
  });
});
