/**
 * Valibot field schemas with OpenAI-style messages ("Invalid type for 'x': expected ...").
 * Each takes the parameter name so the message names it.
 */
import * as v from 'valibot';
import type { ParameterRange, RangeValue } from '../domain/parameters';
import { unknownSampler } from '../domain/sampler-order';
import { describeValue } from './describe-value';
import { logitBiasField } from './logit-bias-field';

const typeMessage = (param: string, expected: string) => (issue: v.BaseIssue<unknown>) =>
  `Invalid type for '${param}': expected ${expected}, but got ${describeValue(issue.input)} instead.`;

const rangeMessage = (param: string, range: string) => (issue: v.BaseIssue<unknown>) =>
  `Invalid value for '${param}': expected ${range}, but got ${String(issue.input)} instead.`;

/** An integer in [min, max]. */
export const integerField = (param: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  v.pipe(
    v.number(typeMessage(param, 'an integer')),
    v.integer(typeMessage(param, 'an integer')),
    v.minValue(min, rangeMessage(param, `a value >= ${min}`)),
    v.maxValue(max, rangeMessage(param, `a value <= ${max}`)),
  );

/** A finite number in [min, max] (or (min, max] when `minExclusive`). */
export const numberField = (param: string, min: number, max: number, minExclusive = false) =>
  v.pipe(
    v.number(typeMessage(param, 'a number')),
    v.finite(typeMessage(param, 'a finite number')),
    minExclusive
      ? v.gtValue(min, rangeMessage(param, `a value > ${min} and <= ${max}`))
      : v.minValue(min, rangeMessage(param, `a value >= ${min} and <= ${max}`)),
    v.maxValue(max, rangeMessage(param, `a value <= ${max}`)),
  );

export const stringField = (param: string) => v.string(typeMessage(param, 'a string'));

export const booleanField = (param: string) => v.boolean(typeMessage(param, 'a boolean'));

/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * `stop`: a string or an array of non-empty strings, each well-formed Unicode: a lone surrogate
 * would match half of a character (llama.cpp's server refuses such JSON too).
 */
export const stopField = (param: string) =>
  v.pipe(
    v.union(
      [v.string(), v.array(v.pipe(v.string(), v.minLength(1)))],
      typeMessage(param, 'a string or an array of non-empty strings'),
    ),
    v.check(
      (stop) => (typeof stop === 'string' ? [stop] : stop).every((s) => !LONE_SURROGATE.test(s)),
      `Invalid value for '${param}': a stop string holds a lone UTF-16 surrogate (half of a character).`,
    ),
  );

/** An array of non-negative integer token ids. */
export const tokenIdsField = (param: string) => {
  const message = typeMessage(param, 'an array of non-negative integer token ids');
  return v.array(v.pipe(v.number(message), v.integer(message), v.minValue(0, message)), message);
};

/** A non-empty array of strings (llama-server's `dry_sequence_breakers`). */
export const stringsField = (param: string) =>
  v.pipe(
    v.array(v.string(typeMessage(param, 'an array of strings')), typeMessage(param, 'an array of strings')),
    v.minLength(1, `Invalid value for '${param}': expected a non-empty array of strings.`),
  );

const badSamplerOf = (input: unknown): string | undefined =>
  typeof input === 'string'
    ? unknownSampler(input)
    : Array.isArray(input)
      ? unknownSampler(input.map(String))
      : undefined;

/** llama-server's `samplers`: an array of sampler names or a string of sampler letters, each one llama.cpp knows. */
export const samplersField = (param: string) =>
  v.pipe(
    v.union([v.string(), v.array(v.string())], typeMessage(param, 'an array of sampler names or a string of letters')),
    v.check(
      (order) => unknownSampler(order) === undefined,
      (issue) =>
        `Invalid value for '${param}': '${String(badSamplerOf(issue.input))}' is not a sampler (penalties, dry, top_n_sigma, top_k, typ_p, top_p, min_p, xtc, temperature, infill, adaptive_p; or their letters edskypmxtia).`,
    ),
  );

/** A schema whose output is a `kind`'s value. */
type FieldSchema<K extends ParameterRange['kind']> = v.GenericSchema<unknown, RangeValue<K>>;

/** The schema of one parameter-table row, its messages naming `param`. */
export function parameterField<R extends ParameterRange>(param: string, range: R): FieldSchema<R['kind']> {
  const schema = (): v.GenericSchema<unknown, RangeValue<ParameterRange['kind']>> => {
    switch (range.kind) {
      case 'number':
        return numberField(param, range.min, range.max, range.minExclusive ?? false);
      case 'integer':
        return integerField(param, range.min, range.max);
      case 'boolean':
        return booleanField(param);
      case 'logit_bias':
        return logitBiasField(param);
      case 'token_ids':
        return tokenIdsField(param);
      case 'strings':
        return stringsField(param);
      case 'samplers':
        return samplersField(param);
    }
  };
  // The one typed seam: the switch narrows `range` but not the generic return type.
  return schema() as FieldSchema<R['kind']>;
}

/** Optional (absent or null) schemas for every row of `rows`, keyed by parameter name. */
export function parameterFields<Rows extends Record<string, { range: ParameterRange }>>(rows: Rows) {
  const entries = Object.entries(rows).map(([name, row]) => [name, v.nullish(parameterField(name, row.range))]);
  return Object.fromEntries(entries) as {
    [K in keyof Rows]: v.NullishSchema<FieldSchema<Rows[K]['range']['kind']>, undefined>;
  };
}
