import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../src/core/domain/errors';
import { FailedInpage } from '../../../../src/page/failed-inpage';

describe('FailedInpage (startInpage with a model it cannot resolve)', () => {
  it('ready rejects with the error; every call fails with it; an error event follows', async () => {
    const error = new InvalidRequestError("Unknown model 'gpt-4'", 'model', 'model_not_found');
    const inpage = new FailedInpage('gpt-4', 'llamacpp', null, error);
    const events: unknown[] = [];
    inpage.addEventListener('error', (event) => events.push((event as CustomEvent).detail));
    expect(inpage).toMatchObject({ model: 'gpt-4', backend: 'llamacpp', apiKey: null, role: 'leader' });
    await expect(inpage.ready).rejects.toBe(error);
    await expect(inpage.load()).rejects.toBe(error);
    await expect(inpage.isCached()).rejects.toBe(error);
    await expect(inpage.recentRequests()).rejects.toBe(error);
    await expect(
      (async () => {
        for await (const _ of inpage.stream()) break;
      })(),
    ).rejects.toBe(error);
    // The model store needs no engine: it still answers (empty here, with no OPFS).
    await expect(inpage.models.list()).resolves.toEqual([]);
    await inpage.dispose();
    await new Promise((resolve) => setTimeout(resolve));
    expect(events).toEqual([error]);
  });
});
