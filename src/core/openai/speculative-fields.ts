/**
 * llama-server's per-request speculative fields, dotted names as it reads them:
 * `speculative.type` (`none`, `ngram-simple` or `draft-simple`; absent: the model's default),
 * `speculative.ngram_size_n`, `speculative.ngram_size_m`, `speculative.n_max`,
 * `speculative.n_min`, and `speculative.p_min`, which only a draft model reads. A type llama.cpp
 * has that is not built here (EAGLE3, MTP, the n-gram maps) is a 400 naming the field.
 */
import * as v from 'valibot';
import { InvalidRequestError } from '../domain/errors';
import { resolveSpeculative, type SpeculativeRequest } from '../domain/speculative';
import { integerField, numberField, stringField } from './fields';

const optional = <S extends v.GenericSchema>(schema: S) => v.nullish(schema);

/** llama.cpp's speculative types (common_speculative_type names) that are not built here. */
const OTHER_TYPES = [
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

/**
 * What the request asked for, or null where it gave no `speculative.*` field (the model's
 * default then: its draft model, where it has one). An explicit type is checked here with its
 * defaults (`resolveSpeculative`); a draft model's type or `p_min` on a model without one is
 * refused by the capability check (`draft_model`).
 */
export function readSpeculative(input: SpeculativeInput): SpeculativeRequest | null {
  const given = (Object.keys(speculativeFields) as Array<keyof SpeculativeInput>).some(
    (key) => input[key] !== undefined && input[key] !== null,
  );
  if (!given) return null;
  const type = input['speculative.type'] ?? null;
  if (type !== null && type !== 'none' && type !== 'ngram-simple' && type !== 'draft-simple') {
    const known = OTHER_TYPES.includes(type);
    throw new InvalidRequestError(
      known
        ? `'speculative.type' '${type}' is not supported here: only 'ngram-simple' and 'draft-simple' (or 'none') are.`
        : `Invalid value for 'speculative.type': expected 'none', 'ngram-simple' or 'draft-simple', but got '${type}' instead.`,
      'speculative.type',
      known ? 'unsupported_parameter' : 'invalid_value',
    );
  }
  const request: SpeculativeRequest = {
    type,
    ngram_size_n: input['speculative.ngram_size_n'] ?? null,
    ngram_size_m: input['speculative.ngram_size_m'] ?? null,
    n_max: input['speculative.n_max'] ?? null,
    n_min: input['speculative.n_min'] ?? null,
    p_min: input['speculative.p_min'] ?? null,
  };
  // With its type known, what the engine would refuse is refused here (a draft model is assumed: see above).
  if (type !== null) resolveSpeculative(request, true);
  return request;
}
