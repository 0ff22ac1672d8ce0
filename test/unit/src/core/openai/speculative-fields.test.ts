import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import {
  DRAFT_MODEL_N_MAX,
  resolveSpeculative,
  SPECULATIVE_DEFAULTS,
} from '../../../../../src/core/domain/speculative';
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

const NONE_GIVEN = { ngram_size_n: null, ngram_size_m: null, n_max: null, n_min: null, p_min: null };

describe('readSpeculative', () => {
  it("is null (the model's default) when no field is given, and keeps what was given", () => {
    expect(readSpeculative({})).toBeNull();
    expect(readSpeculative({ 'speculative.type': null })).toBeNull();
    expect(readSpeculative({ 'speculative.type': 'none', 'speculative.n_max': 4 })).toEqual({
      ...NONE_GIVEN,
      type: 'none',
      n_max: 4,
    });
    expect(readSpeculative({ 'speculative.p_min': 0.5 })).toEqual({ ...NONE_GIVEN, type: null, p_min: 0.5 });
  });

  it('takes both built types with the fields given', () => {
    expect(readSpeculative({ 'speculative.type': 'ngram-simple' })).toEqual({ ...NONE_GIVEN, type: 'ngram-simple' });
    expect(
      readSpeculative({
        'speculative.type': 'ngram-simple',
        'speculative.ngram_size_n': 3,
        'speculative.ngram_size_m': 8,
        'speculative.n_max': 6,
        'speculative.n_min': 2,
      }),
    ).toEqual({ type: 'ngram-simple', ngram_size_n: 3, ngram_size_m: 8, n_max: 6, n_min: 2, p_min: null });
    expect(readSpeculative({ 'speculative.type': 'draft-simple', 'speculative.p_min': 0.75 })).toEqual({
      ...NONE_GIVEN,
      type: 'draft-simple',
      p_min: 0.75,
    });
  });

  it('refuses what is not built here or does not fit, naming the field', () => {
    expect(paramOf({ 'speculative.type': 'draft-eagle3' })).toBe('speculative.type');
    expect(paramOf({ 'speculative.type': 'medusa' })).toBe('speculative.type');
    expect(paramOf({ 'speculative.type': 'ngram-simple', 'speculative.p_min': 0.3 })).toBe('speculative.p_min');
    expect(paramOf({ 'speculative.type': 'draft-simple', 'speculative.p_min': 0.3 })).toBeNull();
    expect(paramOf({ 'speculative.p_min': 0 })).toBeNull();
    expect(paramOf({ 'speculative.type': 'ngram-simple', 'speculative.n_min': 5, 'speculative.n_max': 2 })).toBe(
      'speculative.n_min',
    );
    expect(paramOf({ 'speculative.type': 'draft-simple', 'speculative.n_min': 4 })).toBe('speculative.n_min');
  });
});

describe('resolveSpeculative', () => {
  it("runs the model's draft model by default, and nothing without one", () => {
    expect(resolveSpeculative(null, false)).toBeNull();
    expect(resolveSpeculative(null, true)).toEqual({
      type: 'draft-simple',
      ...SPECULATIVE_DEFAULTS,
      n_max: DRAFT_MODEL_N_MAX,
    });
    expect(resolveSpeculative({ ...NONE_GIVEN, type: null, n_max: 8 }, false)).toBeNull();
    expect(resolveSpeculative({ ...NONE_GIVEN, type: 'none' }, true)).toBeNull();
  });

  it("takes each type's defaults under the fields given", () => {
    expect(resolveSpeculative({ ...NONE_GIVEN, type: 'ngram-simple' }, true)).toEqual({
      type: 'ngram-simple',
      ...SPECULATIVE_DEFAULTS,
    });
    expect(resolveSpeculative({ ...NONE_GIVEN, type: null, n_max: 8, p_min: 0.5 }, true)).toMatchObject({
      type: 'draft-simple',
      n_max: 8,
      p_min: 0.5,
    });
  });

  it('refuses a draft model where there is none, and p_min without one', () => {
    expect(() => resolveSpeculative({ ...NONE_GIVEN, type: 'draft-simple' }, false)).toThrow(InvalidRequestError);
    expect(() => resolveSpeculative({ ...NONE_GIVEN, type: null, p_min: 0.5 }, false)).toThrow(/p_min/);
  });
});
