/**
 * The last generation each of a model's slots ran, or runs (`SlotTask`: llama-server's per-task
 * fields of `GET /slots`). The engine's shared layer (run-choice.ts) follows each choice the
 * backend says it took on a slot (the `prompt` event's `slot`); `list` is what the SW reads,
 * at any time, without a turn on the model's queue or a call into the engine.
 */
import type { SlotSettings, SlotTask } from '#core/domain/slots';

/** One choice on its slot, as it goes. */
export interface SlotTaskRun {
  /** `generated` tokens so far, the last of them giving `text`. */
  token(generated: number, text: string): void;
  /** It ended on its own (an end-of-generation token, a stop, its limit): nothing comes next. */
  ended(): void;
  /** The slot is given back: the task's counts are cleared, as llama-server's `reset()` does. */
  release(): void;
}

export class SlotTasks {
  private readonly tasks: (SlotTask | null)[];
  private begun = 0;

  constructor(count: number) {
    this.tasks = new Array<SlotTask | null>(count).fill(null);
  }

  /** A choice took `slot`: its prompt of `prompt` tokens, `cached` of them kept from before. */
  begin(slot: number, settings: SlotSettings, prompt: number, cached: number): SlotTaskRun {
    const task: SlotTask = {
      id: this.begun++,
      tokens: prompt,
      processed: prompt - cached,
      cached,
      decoded: 0,
      remaining: settings.max_tokens ?? -1,
      has_next_token: true,
      has_new_line: false,
      settings,
    };
    if (slot >= 0 && slot < this.tasks.length) this.tasks[slot] = task;
    return {
      token: (generated, text) => {
        task.decoded = generated;
        task.tokens = prompt + generated;
        if (settings.max_tokens !== null) task.remaining = settings.max_tokens - generated;
        if (text.includes('\n')) task.has_new_line = true;
      },
      ended: () => {
        task.has_next_token = false;
      },
      release: () => {
        // The last token sampled is never read into the slot (nothing came after it).
        task.tokens = prompt + Math.max(0, task.decoded - 1);
        Object.assign(task, { processed: 0, cached: 0, decoded: 0, remaining: -1, has_new_line: false });
      },
    };
  }

  /** The slot's context changed outside a generation (a slot action): it holds `tokens` now. */
  holds(slot: number, tokens: number): void {
    const task = this.tasks[slot];
    if (task) task.tokens = tokens;
  }

  /** Each slot's last task (null: none yet), as copies. */
  list(): (SlotTask | null)[] {
    return this.tasks.map((task) => (task ? { ...task } : null));
  }
}
