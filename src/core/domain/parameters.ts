/**
 * The one parameter table. Every generation parameter that endpoints share is one row: its
 * value range (the request schemas derive from it), its default when a request leaves it out,
 * its "off" value (the greedy baseline and the capability check derive from it), its aliases,
 * and the backends that cannot honour it at a value other than "off" (a 400 naming it).
 */
import type { BackendName } from './backend-name';
import { DEFAULT_SAMPLER_ORDER, readSamplerOrder, type SamplerName } from './sampler-order';

/** The values a parameter takes; `fields.ts` turns each kind into a schema. */
export type ParameterRange =
  | { kind: 'number'; min: number; max: number; minExclusive?: boolean }
  | { kind: 'integer'; min: number; max?: number }
  | { kind: 'boolean' }
  | { kind: 'logit_bias' }
  | { kind: 'token_ids' }
  /** A non-empty array of strings. */
  | { kind: 'strings' }
  /** llama-server's `samplers`: an array of sampler names or a string of their letters. */
  | { kind: 'samplers' };

/**
 * `logit_bias` once read: [token, bias] pairs, a token as its id or as text (llama-server's: the
 * engine biases each token of its tokenization), a ban as -Infinity. Pairs on one token add up.
 */
export type LogitBias = Array<[token: number | string, bias: number]>;

/** What a request value of each kind is, once validated. */
export type RangeValue<K extends ParameterRange['kind']> = K extends 'number' | 'integer'
  ? number
  : K extends 'boolean'
    ? boolean
    : K extends 'logit_bias'
      ? LogitBias
      : K extends 'strings'
        ? string[]
        : K extends 'samplers'
          ? string | string[]
          : number[];

/** One row of the table. */
export interface ParameterRow<T, R extends ParameterRange = ParameterRange> {
  readonly range: R;
  /** The value when a request leaves the parameter out. */
  readonly default: T;
  /** The value at which the parameter does nothing (greedy baseline, capability check). */
  readonly off: T;
  /** Other names a request may use for it (they must agree when both are given). */
  readonly aliases?: readonly string[];
  /** Backends that answer 400 when it is not `off`. */
  readonly unsupportedOn: readonly BackendName[];
  /** How a validated request value becomes the row's value (absent: as it is). */
  read?(value: RangeValue<R['kind']>): T;
}

const row = <T, R extends ParameterRange>(
  range: R,
  value: T,
  unsupportedOn: readonly BackendName[] = [],
  more: Partial<ParameterRow<T, R>> = {},
): ParameterRow<T, R> => ({
  range,
  default: value,
  off: value,
  unsupportedOn,
  ...more,
});

/** The sampling parameters: one row each. */
export const SAMPLING = {
  temperature: row({ kind: 'number', min: 0, max: 2 }, 1, [], { off: 0 }),
  top_p: row({ kind: 'number', min: 0, max: 1, minExclusive: true }, 1),
  /** -1 is read as 0 (off), as vLLM does. */
  top_k: row({ kind: 'integer', min: -1 }, 0, ['webllm'], { read: (k: number) => Math.max(0, k) }),
  min_p: row({ kind: 'number', min: 0, max: 1 }, 0, ['webllm']),
  /** Keeps the tokens within n standard deviations of the top logit; <= 0 is off (llama.cpp's -1). */
  top_n_sigma: row({ kind: 'number', min: -1, max: 100 }, -1, ['webllm'], { read: (n: number) => (n > 0 ? n : -1) }),
  typical_p: row({ kind: 'number', min: 0, max: 1, minExclusive: true }, 1, ['webllm']),
  /** 0 = off, 1 = Mirostat, 2 = Mirostat 2.0. */
  mirostat: row<0 | 1 | 2, { kind: 'integer'; min: number; max: number }>(
    { kind: 'integer', min: 0, max: 2 },
    0,
    ['webllm'],
    { aliases: ['mirostat_mode'], read: (mode: number) => (mode === 1 || mode === 2 ? mode : 0) },
  ),
  mirostat_tau: row({ kind: 'number', min: 0, max: 100 }, 5),
  mirostat_eta: row({ kind: 'number', min: 0, max: 1 }, 0.1),
  presence_penalty: row({ kind: 'number', min: -2, max: 2 }, 0),
  frequency_penalty: row({ kind: 'number', min: -2, max: 2 }, 0),
  /** At least 0.01: llama.cpp reads it as a float, where 1e-40 is 0 (and a 500). */
  repetition_penalty: row({ kind: 'number', min: 0.01, max: 10 }, 1, [], { aliases: ['repeat_penalty'] }),
  /** [token id or text, bias] pairs (`LogitBias`); none: off. */
  logit_bias: row<LogitBias, { kind: 'logit_bias' }>({ kind: 'logit_bias' }, []),
  seed: row<number | null, { kind: 'integer'; min: number }>({ kind: 'integer', min: Number.MIN_SAFE_INTEGER }, null),
  // llama-server's own samplers (llama.cpp's common sampler, which native/sampling.cpp sets up
  // from them; defaults and limits are llama-server's). WebLLM has none of them.
  /** How many recent tokens the repetition penalties look at (llama-server's name; llama.cpp's penalty_last_n). */
  repeat_last_n: row({ kind: 'integer', min: 0 }, 64, ['webllm'], { aliases: ['penalty_last_n'] }),
  /** Dynamic temperature: temperature +- range by the distribution's entropy; <= 0 is off. */
  dynatemp_range: row({ kind: 'number', min: -100, max: 100 }, 0, ['webllm'], {
    read: (r: number) => Math.max(0, r),
  }),
  dynatemp_exponent: row({ kind: 'number', min: 0, max: 100 }, 1, ['webllm']),
  /** XTC: with this probability, cut the likeliest tokens above `xtc_threshold` but the last. */
  xtc_probability: row({ kind: 'number', min: 0, max: 1 }, 0, ['webllm']),
  xtc_threshold: row({ kind: 'number', min: 0, max: 1 }, 0.1, ['webllm']),
  /** DRY: multiplier * base ^ (repeat length - allowed length) off a token that extends a repeat. */
  dry_multiplier: row({ kind: 'number', min: 0, max: 100 }, 0, ['webllm']),
  /** Below 1 is read as the default, as llama-server reads it. */
  dry_base: row({ kind: 'number', min: 0, max: 100 }, 1.75, ['webllm'], { read: (b: number) => (b < 1 ? 1.75 : b) }),
  dry_allowed_length: row({ kind: 'integer', min: 0 }, 2, ['webllm']),
  dry_penalty_last_n: row({ kind: 'integer', min: 0 }, 64, ['webllm']),
  dry_sequence_breakers: row<string[], { kind: 'strings' }>({ kind: 'strings' }, ['\n', ':', '"', '*'], ['webllm']),
  /** Adaptive-p (a final sampler, used when `samplers` names `adaptive_p`): negative is off. */
  adaptive_target: row({ kind: 'number', min: -1, max: 1 }, -1, ['webllm'], {
    read: (t: number) => (t < 0 ? -1 : t),
  }),
  adaptive_decay: row({ kind: 'number', min: 0, max: 0.99 }, 0.9, ['webllm']),
  /** The fewest tokens top_p, min_p, typical_p and XTC leave. */
  min_keep: row({ kind: 'integer', min: 0 }, 0, ['webllm']),
  /** The chain's order, in canonical names. */
  samplers: row<readonly SamplerName[], { kind: 'samplers' }>({ kind: 'samplers' }, DEFAULT_SAMPLER_ORDER, ['webllm'], {
    read: readSamplerOrder,
  }),
} as const;

/** The other generation parameters that backends may not honour. */
export const LIMITS = {
  /** EOS is suppressed until this many tokens were generated. */
  min_tokens: row({ kind: 'integer', min: 0 }, 0, ['webllm']),
  ignore_eos: row({ kind: 'boolean' }, false),
  stop_token_ids: row<number[], { kind: 'token_ids' }>({ kind: 'token_ids' }, [], ['webllm']),
  include_stop_str_in_output: row({ kind: 'boolean' }, false, [], { aliases: ['no_stop_trim'] }),
} as const;

/** Every row, by name. */
export const PARAMETERS = { ...SAMPLING, ...LIMITS } as const;

/** The name of a row. */
export type ParameterName = keyof typeof PARAMETERS;

type ValueOf<R> = R extends ParameterRow<infer T, ParameterRange> ? T : never;

/** Every row's value (the sampling parameters and the limits), as a validated request holds them. */
export type ParameterValues = { -readonly [K in ParameterName]: ValueOf<(typeof PARAMETERS)[K]> };

/** Every row as a request body may hold it: absent or null means the row's default. */
export type ParameterInput = {
  [K in ParameterName]?: RangeValue<(typeof PARAMETERS)[K]['range']['kind']> | null;
};

/** The rows' names, in table order. */
export const PARAMETER_NAMES = Object.keys(PARAMETERS) as ParameterName[];

/** The sampling parameters with their values (every one present; "off" where a request left it out). */
export type SamplingParams = { -readonly [K in keyof typeof SAMPLING]: ValueOf<(typeof SAMPLING)[K]> };

/** Every sampler off, greedy: the baseline for internal one-token requests (scoring, counting). */
export const GREEDY: SamplingParams = valuesOf(SAMPLING, 'off');

/** Each sampler's default when a request leaves it out. */
export const SAMPLING_DEFAULTS: SamplingParams = valuesOf(SAMPLING, 'default');

/** One column of the table as an object (the one typed seam: `fromEntries` loses the keys). */
function valuesOf<T extends Record<string, ParameterRow<unknown, ParameterRange>>>(
  rows: T,
  column: 'off' | 'default',
): { -readonly [K in keyof T]: ValueOf<T[K]> } {
  return Object.fromEntries(Object.entries(rows).map(([name, r]) => [name, r[column]])) as {
    -readonly [K in keyof T]: ValueOf<T[K]>;
  };
}

/** Every row of a larger object (a request), and nothing else. */
export function pickParameters(source: ParameterValues): ParameterValues {
  return Object.fromEntries(PARAMETER_NAMES.map((name) => [name, source[name]])) as ParameterValues;
}

/** The sampling parameters of a larger object (a request), and nothing else. */
export function pickSampling(source: SamplingParams): SamplingParams {
  const out: SamplingParams = { ...GREEDY };
  for (const key of Object.keys(SAMPLING) as Array<keyof SamplingParams>) Object.assign(out, { [key]: source[key] });
  return out;
}

/** Whether `value` differs from the parameter's "off" value. */
export function isActive(name: ParameterName, value: unknown): boolean {
  return JSON.stringify(value) !== JSON.stringify(PARAMETERS[name].off);
}

/** The table's parameters that `backend` cannot honour. */
export function unsupportedOn(backend: BackendName): ParameterName[] {
  return (Object.keys(PARAMETERS) as ParameterName[]).filter((name) =>
    PARAMETERS[name].unsupportedOn.includes(backend),
  );
}
