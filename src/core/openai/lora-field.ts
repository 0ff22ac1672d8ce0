/**
 * `lora` (llama-server's per-request field, and `POST /lora-adapters`' body): an array of
 * `{id, scale}`, an adapter's id (its place in the model's load order) and a finite scale
 * (negative ones too: llama.cpp subtracts the adapter). llama-server takes a missing `id` as -1
 * and a missing `scale` as 0, and so ignores the entry or turns the adapter off; here each is
 * required, a 400 naming it.
 */
import * as v from 'valibot';
import type { LoraScale } from '../domain/lora';
import { describeValue } from './describe-value';
import { integerField } from './fields';

export const loraField = (param: string) =>
  v.array(
    v.object(
      {
        id: integerField(`${param}[].id`, 0),
        scale: v.pipe(
          v.number(
            (issue) =>
              `Invalid type for '${param}[].scale': expected a number, but got ${describeValue(issue.input)} instead.`,
          ),
          v.finite(`Invalid value for '${param}[].scale': expected a finite number.`),
        ),
      },
      (issue) =>
        issue.input === undefined
          ? `Missing '${param}[].${String(issue.expected ?? 'id').replaceAll('"', '')}': each entry is {id, scale}.`
          : `Invalid type for '${param}': expected an array of {id, scale}, but got ${describeValue(issue.input)} inside.`,
    ),
    (issue) =>
      `Invalid type for '${param}': expected an array of {id, scale}, but got ${describeValue(issue.input)} instead.`,
  );

/** The entries as the engine takes them. */
export function readLora(entries: readonly { id: number; scale: number }[] | null | undefined): LoraScale[] {
  return (entries ?? []).map(({ id, scale }) => ({ id, scale }));
}
