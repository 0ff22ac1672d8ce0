/**
 * llama-server's per-request speculative fields, dotted names as it reads them:
 * `speculative.type` (`none`, the default, or `ngram-simple`), `speculative.ngram_size_n`,
 * `speculative.ngram_size_m`, `speculative.n_max`, `speculative.n_min`, and `speculative.p_min`,
 * which only a draft model reads (none is loaded here: a value other than 0 is a 400). A type
 * llama.cpp has that is not built here (a draft model, the n-gram maps) is a 400 naming the field.
 */
import * as v from 'valibot';
import { InvalidRequestError } from '../domain/errors';
import { SPECULATIVE_DEFAULTS, type SpeculativeParams } from '../domain/speculative';
import { integerField, numberField, stringField } from './fields';

const optional = <S extends v.GenericSchema>(schema: S) => v.nullish(schema);

/** llama.cpp's speculative types (common_speculative_type names) that are not built here. */
const OTHER_TYPES = [
  'draft-simple',
  'draft-eagle3',
  'draft-mtp',
  'draft-dflash',
  'draft-dspark',
  'ngram-map-k',
  'ngram-map-k4v',
  'ngram-mod',
  'ngram-cache',
];

export const speculativeFields = {
  'speculative.type': optional(stringField('speculative.type')),
  'speculative.ngram_size_n': optional(integerField('speculative.ngram_size_n', 1, 1024)),
  'speculative.ngram_size_m': optional(integerField('speculative.ngram_size_m', 1, 1024)),
  'speculative.n_max': optional(integerField('speculative.n_max', 0, 1024)),
  'speculative.n_min': optional(integerField('speculative.n_min', 0, 1024)),
  'speculative.p_min': optional(numberField('speculative.p_min', 0, 1)),
};

export type SpeculativeInput = {
  [K in keyof typeof speculativeFields]?: v.InferOutput<(typeof speculativeFields)[K]>;
};

/** The request's speculative decoding, or null (`none`, or no type given). */
export function readSpeculative(input: SpeculativeInput): SpeculativeParams | null {
  const type = input['speculative.type'] ?? 'none';
  if ((input['speculative.p_min'] ?? 0) !== 0)
    throw new InvalidRequestError(
      "'speculative.p_min' applies to a draft model's tokens, and no draft model is loaded here.",
      'speculative.p_min',
      'unsupported_parameter',
    );
  if (type === 'none') return null;
  if (type !== 'ngram-simple') {
    const known = OTHER_TYPES.includes(type);
    throw new InvalidRequestError(
      known
        ? `'speculative.type' '${type}' is not supported here: only 'ngram-simple' (or 'none') is.`
        : `Invalid value for 'speculative.type': expected 'none' or 'ngram-simple', but got '${type}' instead.`,
      'speculative.type',
      known ? 'unsupported_parameter' : 'invalid_value',
    );
  }
  const params: SpeculativeParams = {
    type,
    ngram_size_n: input['speculative.ngram_size_n'] ?? SPECULATIVE_DEFAULTS.ngram_size_n,
    ngram_size_m: input['speculative.ngram_size_m'] ?? SPECULATIVE_DEFAULTS.ngram_size_m,
    n_max: input['speculative.n_max'] ?? SPECULATIVE_DEFAULTS.n_max,
    n_min: input['speculative.n_min'] ?? SPECULATIVE_DEFAULTS.n_min,
  };
  if (params.n_min > params.n_max)
    throw new InvalidRequestError(
      "'speculative.n_min' must not exceed 'speculative.n_max'.",
      'speculative.n_min',
      'invalid_value',
    );
  return params;
}
