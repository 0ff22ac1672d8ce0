/**
 * The parameter table's values of a validated request body: every row read, with the table's
 * default where the request left it out (or sent null). Shared by every endpoint's validator.
 */
import { PARAMETER_NAMES, PARAMETERS, type ParameterInput, type ParameterValues } from '../domain/parameters';

export type { ParameterInput, ParameterValues } from '../domain/parameters';

export function readParameters(input: ParameterInput): ParameterValues {
  const entries = PARAMETER_NAMES.map((name) => {
    const row: { default: unknown; read?(value: unknown): unknown } = PARAMETERS[name];
    const value = input[name];
    return [name, value == null ? row.default : row.read ? row.read(value) : value];
  });
  // The one seam: `fromEntries` loses the keys (each value is its row's, by construction).
  return Object.fromEntries(entries) as ParameterValues;
}
