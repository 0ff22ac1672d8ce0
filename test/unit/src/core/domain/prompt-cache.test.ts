/** `startInpage({ promptCache })`: what it takes, its defaults, and the 400s naming the field. */
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import { DEFAULT_PROMPT_CACHE, readPromptCache } from '../../../../../src/core/domain/prompt-cache';

describe('readPromptCache', () => {
  it('is on by default, off with false, bounded by what an object names', () => {
    expect(readPromptCache(undefined)).toEqual(DEFAULT_PROMPT_CACHE);
    expect(readPromptCache(true)).toEqual(DEFAULT_PROMPT_CACHE);
    expect(readPromptCache(false)).toEqual({ ...DEFAULT_PROMPT_CACHE, enabled: false });
    expect(readPromptCache({ maxMiB: 64 })).toEqual({ enabled: true, maxMiB: 64, maxAgeDays: 7 });
    expect(readPromptCache({ maxAgeDays: 0.5 })).toEqual({ enabled: true, maxMiB: 1024, maxAgeDays: 0.5 });
  });

  it.each([
    ['promptCache', 'yes'],
    ['promptCache', null],
    ['promptCache', [1]],
    ['promptCache', { maxMib: 5 }],
    ['promptCache.maxMiB', { maxMiB: 0 }],
    ['promptCache.maxMiB', { maxMiB: '5' }],
    ['promptCache.maxAgeDays', { maxAgeDays: Number.POSITIVE_INFINITY }],
  ])('a 400 naming %s for %j', (named, value) => {
    let thrown: unknown;
    try {
      readPromptCache(value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidRequestError);
    expect((thrown as InvalidRequestError).message).toContain(named);
    expect((thrown as InvalidRequestError).param).toBe(named);
  });
});
