/**
 * llama-server's `samplers` field: the order of llama.cpp's sampler chain, as an array of names
 * (canonical, kebab-case, without the underscore, or an alias, in any case) or a string of
 * letters (`"edskypmxt"`). A request's value is read into canonical names, the form the engine's
 * glue passes to llama.cpp (`common_sampler_types_from_names`).
 */

/** Each canonical name and its letter (llama.cpp's `common_sampler_type_to_chr`). */
const LETTERS = {
  penalties: 'e',
  dry: 'd',
  top_n_sigma: 's',
  top_k: 'k',
  typ_p: 'y',
  top_p: 'p',
  min_p: 'm',
  xtc: 'x',
  temperature: 't',
  infill: 'i',
  adaptive_p: 'a',
} as const;

export type SamplerName = keyof typeof LETTERS;

/** llama.cpp's default chain (common_params_sampling.samplers). */
export const DEFAULT_SAMPLER_ORDER: readonly SamplerName[] = [
  'penalties',
  'dry',
  'top_n_sigma',
  'top_k',
  'typ_p',
  'top_p',
  'min_p',
  'xtc',
  'temperature',
];

const CANONICAL = Object.keys(LETTERS) as SamplerName[];

/** Every spelling llama.cpp accepts, lower case, to its canonical name. */
const NAMES = new Map<string, SamplerName>([
  ...CANONICAL.flatMap((name): Array<[string, SamplerName]> => [
    [name, name],
    [name.replaceAll('_', '-'), name],
    [name.replaceAll('_', ''), name],
  ]),
  ['nucleus', 'top_p'],
  ['temp', 'temperature'],
  ['typ', 'typ_p'],
]);

const BY_LETTER = new Map<string, SamplerName>(CANONICAL.map((name) => [LETTERS[name], name]));

/** The first entry of `order` that names no sampler, or undefined when all do. */
export function unknownSampler(order: string | readonly string[]): string | undefined {
  return typeof order === 'string'
    ? [...order].find((letter) => !BY_LETTER.has(letter))
    : order.find((name) => !NAMES.has(name.toLowerCase()));
}

/** The canonical names of a valid `samplers` value. */
export function readSamplerOrder(order: string | readonly string[]): SamplerName[] {
  const names =
    typeof order === 'string' ? [...order].map((l) => BY_LETTER.get(l)) : order.map((n) => NAMES.get(n.toLowerCase()));
  return names.filter((name): name is SamplerName => name !== undefined);
}
