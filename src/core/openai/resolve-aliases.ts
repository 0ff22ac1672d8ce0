/**
 * The parameter table's aliases (`repeat_penalty`, `mirostat_mode`, `no_stop_trim`), resolved
 * once for every endpoint: each is checked under its own name and moved to its table name;
 * giving both with different values is a 400.
 */
import * as v from 'valibot';
import { InvalidRequestError } from '../domain/errors';
import { PARAMETERS } from '../domain/parameters';
import { parameterField } from './fields';

const aliases = new Map(
  Object.entries(PARAMETERS).flatMap(([name, row]) => (row.aliases ?? []).map((alias) => [alias, { name, row }])),
);

/** Every alias a request may use. */
export const PARAMETER_ALIASES: readonly string[] = [...aliases.keys()];

/** The body with each alias under its table name (a new object; `body` is not changed). */
export function resolveAliases(body: object): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const [alias, { name, row }] of aliases) {
    const value: unknown = out[alias];
    delete out[alias];
    if (value == null) continue;
    const checked = v.safeParse(parameterField(alias, row.range), value);
    if (!checked.success) throw new InvalidRequestError(checked.issues[0].message, alias);
    const own = out[name];
    if (own != null && own !== value)
      throw new InvalidRequestError(`'${name}' and '${alias}' are the same parameter and disagree.`, alias);
    out[name] = value;
  }
  return out;
}
