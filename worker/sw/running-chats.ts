/**
 * The chat completions this Service Worker is running, by their id (`chatcmpl-...`), for
 * llama-server's `POST /v1/chat/completions/control`: from the engine's first event (it took the
 * prompt) while its job runs. An entry whose job ended is dropped when the next one comes, so
 * the map holds about as many as run at once.
 */

/** What a control needs of a running completion's job (its `JobChannel`). */
export interface ChatJob {
  readonly running: boolean;
  control(action: 'reasoning_end'): void;
}

interface RunningChat {
  job: ChatJob;
  /** The request set `reasoning_control`: its reasoning may be ended. */
  control: boolean;
}

const running = new Map<string, RunningChat>();

export function trackChat(id: string, job: ChatJob, control: boolean): void {
  for (const [key, chat] of running) if (!chat.job.running) running.delete(key);
  running.set(id, { job, control });
}

/** llama-server's answer to a control: `success`, and why not (its words). */
export interface ControlResult {
  success: boolean;
  message?: string;
}

/** Ends the reasoning of the running completion `id` (from its next token), as llama-server's `reasoning_end`. */
export function endReasoning(id: string): ControlResult {
  const chat = running.get(id);
  if (!chat?.job.running) {
    running.delete(id);
    return { success: false, message: 'no active completion for this id' };
  }
  if (!chat.control) return { success: false, message: 'reasoning control not enabled for this completion' };
  chat.job.control('reasoning_end');
  return { success: true };
}
