/**
 * llama-server's slot actions (`POST /slots/{id}?action=save|restore|erase`, body `{filename}`):
 * a model's context saved to a named file of the origin's storage, read back from one, or
 * emptied. The Service Worker checks the request; the engine runs it as a job on the model's queue.
 */
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
