/**
 * LoRA adapters (llama-server's `--lora`, `/lora-adapters` and a request's `lora`): GGUF adapters
 * loaded with a llama.cpp model, each at a scale of the model's (0: off), which
 * `POST /lora-adapters` changes. A request may name scales of its own: the adapters it lists run
 * at its scales, the others at 0, as in llama-server; one that lists none runs at the model's.
 */
import { InvalidRequestError } from './errors';

/** One adapter's scale in a request or in `POST /lora-adapters`: its id (its place in the load order). */
export interface LoraScale {
  id: number;
  scale: number;
}

/** `/lora-adapters` as a job: the model's adapters, after setting its scales where `set` is given. */
export interface LoraAdaptersRequest {
  model: string;
  /** `POST`: the listed adapters' scales (the others 0); null: `GET`. */
  set: LoraScale[] | null;
}

/** A loaded adapter as `GET /lora-adapters` lists it. */
export interface LoraAdapterInfo {
  id: number;
  /** Where it came from (llama-server's file path): its URL, or its id where it has none. */
  path: string;
  /** Its scale now, for requests that name none. */
  scale: number;
  /** Its GGUF's `adapter.lora.task_name` and `adapter.lora.prompt_prefix` ('' where absent). */
  task_name: string;
  prompt_prefix: string;
}

/**
 * Refuses scales that name an adapter the model does not have (`count` loaded): a 400 naming
 * `param`, where llama-server ignores them.
 */
export function checkLoraScales(scales: readonly LoraScale[], count: number, param = 'lora'): void {
  const missing = scales.find((entry) => entry.id >= count);
  if (missing === undefined) return;
  const has =
    count === 0
      ? 'this model has none loaded (startInpage({ lora }))'
      : `this model has ${count} (ids 0 to ${count - 1})`;
  throw new InvalidRequestError(
    `'${param}' names LoRA adapter ${missing.id}, and ${has}.`,
    param,
    count === 0 ? 'unsupported_parameter' : 'invalid_value',
  );
}

/** Every adapter's scale under `listed`: its listed scale, else 0 (the last entry wins for an id listed twice). */
export function scalesFrom(listed: readonly LoraScale[], count: number): number[] {
  const scales = new Array<number>(count).fill(0);
  for (const { id, scale } of listed) scales[id] = scale;
  return scales;
}
