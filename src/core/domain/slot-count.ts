/**
 * The llama.cpp engine's slots (llama-server's `--parallel`): how many requests to a model it
 * runs at once, their tokens decoded together in one batch over one KV cache of the model's
 * context, which they share (docs/slots.md). One by default: requests then wait their turn, and
 * speculative decoding (n-grams, a draft model) is available. A page asks with
 * `startInpage({ slots })`, the drop-in's `data-slots`, the playground's `&slots=`.
 */
import { InvalidRequestError } from './errors';

/** The most slots a model gets: past a handful, a CPU's decode is bound by compute, not by the weights' reads. */
export const MAX_SLOTS = 16;

/** `value` as a slot count; throws a 400 naming `field` for anything else. */
export function readSlots(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_SLOTS) return value;
  throw new InvalidRequestError(
    `${field}: ${JSON.stringify(value)} is not a slot count: use an integer from 1 to ${MAX_SLOTS}.`,
    field,
  );
}

/** `&slots=` and `data-slots`: a decimal count. */
export function parseSlots(text: string, field: string): number {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return readSlots(Number(trimmed), field);
  throw new InvalidRequestError(
    `${field}: "${text}" is not a slot count: use an integer from 1 to ${MAX_SLOTS}.`,
    field,
  );
}
