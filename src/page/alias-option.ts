/**
 * `startInpage({ alias })`: more names for the model (llama-server's `--alias a,b`). They ride on
 * the model's spec (`aliases`); anything but non-empty strings is a 400 naming `alias`.
 */
import { InvalidRequestError } from '../core/domain/errors';
import type { ModelSpec } from '../core/domain/model-spec';

export function withAliases(model: ModelSpec, alias: unknown): ModelSpec {
  const names = typeof alias === 'string' ? [alias] : alias;
  if (!Array.isArray(names) || !names.every((name): name is string => typeof name === 'string' && name !== ''))
    throw new InvalidRequestError(
      `'alias' must be a name or a list of names (non-empty strings).`,
      'alias',
      'invalid_value',
    );
  const aliases = [...new Set(names)].filter((name) => name !== model.id);
  return aliases.length === 0 ? model : { ...model, aliases };
}
