import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import { SPECULATIVE_DEFAULTS } from '../../../../../src/core/domain/speculative';
import { readSpeculative } from '../../../../../src/core/openai/speculative-fields';

const paramOf = (input: Parameters<typeof readSpeculative>[0]) => {
  try {
    readSpeculative(input);
  } catch (error) {
    if (error instanceof InvalidRequestError) return error.param;
    throw error;
  }
  return null;
};

describe('readSpeculative', () => {
  it('is off unless a type is given, and none is off', () => {
    expect(readSpeculative({})).toBeNull();
    expect(readSpeculative({ 'speculative.type': 'none', 'speculative.n_max': 4 })).toBeNull();
  });

  it("takes ngram-simple with llama.cpp's defaults, or the fields given", () => {
    expect(readSpeculative({ 'speculative.type': 'ngram-simple' })).toEqual({
      type: 'ngram-simple',
      ...SPECULATIVE_DEFAULTS,
    });
    expect(
      readSpeculative({
        'speculative.type': 'ngram-simple',
        'speculative.ngram_size_n': 3,
        'speculative.ngram_size_m': 8,
        'speculative.n_max': 6,
        'speculative.n_min': 2,
      }),
    ).toEqual({ type: 'ngram-simple', ngram_size_n: 3, ngram_size_m: 8, n_max: 6, n_min: 2 });
  });

  it('refuses what is not built here, naming the field', () => {
    expect(paramOf({ 'speculative.type': 'draft-simple' })).toBe('speculative.type');
    expect(paramOf({ 'speculative.type': 'medusa' })).toBe('speculative.type');
    expect(paramOf({ 'speculative.p_min': 0.3 })).toBe('speculative.p_min');
    expect(paramOf({ 'speculative.p_min': 0 })).toBeNull();
    expect(paramOf({ 'speculative.type': 'ngram-simple', 'speculative.n_min': 5, 'speculative.n_max': 2 })).toBe(
      'speculative.n_min',
    );
  });
});
