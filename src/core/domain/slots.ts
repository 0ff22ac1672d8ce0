/**
 * llama-server's slot actions (`POST /slots/{id}?action=save|restore|erase`, body `{filename}`):
 * a model's context saved to a named file of the origin's storage, read back from one, or
 * emptied. The Service Worker checks the request; the engine runs it as a job on the model's queue.
 * And what `GET /slots` and `/metrics` read of a model's slots from its engine (`ModelSlots`).
 */
import type { LoraScale } from './lora';
import type { ParameterValues } from './parameters';

export type SlotAction = 'save' | 'restore' | 'erase';

export interface SlotActionRequest {
  model: string;
  action: SlotAction;
  /** The model's own slot it acts on (0 to its card's `slots` - 1). */
  slot: number;
  /** The file, for save and restore (checked as llama-server checks it: slot-filename.ts). */
  filename: string | null;
}

export interface SlotActionResult {
  /** Tokens saved, restored, or erased. */
  tokens: number;
  /** Bytes written or read (0 for erase). */
  bytes: number;
  /** How long it took, in milliseconds. */
  ms: number;
}

/**
 * What a generation asked that llama-server's `GET /slots` reports as its slot's `params` (the
 * SW names them as llama-server does: worker/sw/routes/llama-server/generation-settings.ts).
 */
export interface SlotSettings {
  parameters: ParameterValues;
  /** null: up to the context. */
  max_tokens: number | null;
  stop: string[];
  stream: boolean;
  /** Top alternatives reported per token (llama-server's `n_probs`; 0: none). */
  n_probs: number;
  /** The scales the request sent (llama-server lists those). */
  lora?: readonly LoraScale[];
}

/**
 * The last generation a model's slot ran, or runs, as llama-server's `GET /slots` tells it
 * (`server_slot::to_json`): while it runs, its prompt's counts and its tokens so far; once the
 * slot is given back, llama-server clears those counts (`stats`), and so does the engine.
 */
export interface SlotTask {
  /** The model's generations counted when it began (llama-server's `id_task`). */
  id: number;
  /** The tokens the slot holds: its prompt and what was generated (`n_prompt_tokens`). */
  tokens: number;
  /** The prompt's tokens read, and those kept from before (`n_prompt_tokens_processed`, `_cache`). */
  processed: number;
  cached: number;
  /** Tokens generated (`next_token.n_decoded`). */
  decoded: number;
  /** Tokens it may still generate, -1 for no limit (`n_remain`). */
  remaining: number;
  /** Whether it goes on: false once it ended on its own (a stop, its limit), not when cut off. */
  has_next_token: boolean;
  /** Whether its text held a line break yet. */
  has_new_line: boolean;
  settings: SlotSettings;
}

/** A model's slots as its engine tells them (`GET /slots`, `/metrics`), asked when those are. */
export interface ModelSlots {
  /** Each slot's last generation (null: none yet). */
  tasks: (SlotTask | null)[];
  /**
   * The decodes of prompt steps and tokens since the model loaded, and the slots they held
   * together (llama-server's `n_decode_total`, and `n_busy_slots` over it).
   */
  decodes: number;
  decodedSlots: number;
}
