/**
 * What `GET /slots` tells of a slot's generation (slot-tasks.ts), as the engine's shared layer
 * fills it in (run-choice.ts) from a backend's events: while it runs, its prompt's counts and
 * tokens so far; after, llama-server's cleared counts (0 read, 0 kept, `n_remain` -1), the
 * tokens the slot kept, and `has_next_token` false only where it ended on its own.
 */
import { describe, expect, it } from 'vitest';
import { validateCompletion } from '../../../../src/core/openai/validate-completion';
import type { ChoiceRunner, GenerationEvent } from '../../../../worker/engine/backend';
import { runChoice, type ChoicePiece } from '../../../../worker/engine/run-choice';
import { SlotTasks } from '../../../../worker/engine/slot-tasks';

/** A backend whose choice runs on `slot`: a prompt of 3 tokens (1 kept), then `pieces`, then an end unless `cut`. */
function runner(slot: number | undefined, pieces: string[], cut = false): ChoiceRunner<string> {
  return {
    async *generate(): AsyncIterable<GenerationEvent> {
      yield { type: 'prompt', promptTokens: 3, cachedTokens: 1, ...(slot === undefined ? {} : { slot }) };
      for (const [k, text] of pieces.entries()) yield { type: 'text', text, tokens: null, generated: k + 1 };
      if (cut) return;
      const completionTokens = pieces.length + 1;
      yield { type: 'end', finishReason: 'stop', promptTokens: 3, cachedTokens: 1, completionTokens };
    },
    countPromptTokens: () => Promise.resolve(3),
  };
}

/** Runs the choice to its end, calling `during` after its second piece. */
async function run(
  model: ChoiceRunner<string>,
  body: Record<string, unknown>,
  tasks: SlotTasks,
  during: () => void = () => {},
  signal = new AbortController().signal,
): Promise<ChoicePiece[]> {
  const request = { ...validateCompletion({ model: 'm', prompt: 'abc', ...body }), stream: true };
  const out: ChoicePiece[] = [];
  for await (const piece of runChoice(model, request, 'abc', 0, null, signal, tasks)) {
    out.push(piece);
    if (out.length === 3) during();
  }
  return out;
}

describe('SlotTasks', () => {
  it("follows a choice on its slot, then clears the counts as llama-server's reset() does", async () => {
    const tasks = new SlotTasks(2);
    expect(tasks.list()).toEqual([null, null]);
    let seen: ReturnType<SlotTasks['list']> = [];
    await run(runner(1, ['x', 'y\n', 'z']), { max_tokens: 10, temperature: 0.5 }, tasks, () => (seen = tasks.list()));
    expect(seen[0]).toBeNull();
    expect(seen[1]).toMatchObject({
      id: 0,
      tokens: 5,
      processed: 2,
      cached: 1,
      decoded: 2,
      remaining: 8,
      has_next_token: true,
      has_new_line: true,
    });
    expect(seen[1]?.settings).toMatchObject({ max_tokens: 10, stop: [], stream: true, lora: [] });
    expect(seen[1]?.settings.parameters.temperature).toBe(0.5);
    // Ended on an end-of-generation token (the 4th token, with no text): the slot keeps 3 + 4 - 1.
    expect(tasks.list()[1]).toMatchObject({
      id: 0,
      tokens: 6,
      processed: 0,
      cached: 0,
      decoded: 0,
      remaining: -1,
      has_next_token: false,
      has_new_line: false,
    });
  });

  it('counts the tasks; a choice cut off keeps has_next_token; no limit is -1; no slot, no task', async () => {
    const tasks = new SlotTasks(1);
    await run(runner(0, ['a']), {}, tasks);
    const controller = new AbortController();
    let remaining: number | undefined;
    await run(
      runner(0, ['a', 'b', 'c'], true),
      { max_tokens: null },
      tasks,
      () => {
        remaining = tasks.list()[0]?.remaining;
        controller.abort();
      },
      controller.signal,
    );
    expect(remaining).toBe(-1);
    expect(tasks.list()[0]).toMatchObject({ id: 1, has_next_token: true, decoded: 0 });
    // A backend that names no slot (WebLLM) leaves the tasks as they were.
    await run(runner(undefined, ['a']), {}, tasks);
    expect(tasks.list()[0]?.id).toBe(1);
  });

  it('a stop string ends the task on its own; a slot action sets what the slot holds', async () => {
    const tasks = new SlotTasks(1);
    const out = await run(runner(0, ['a', 'b', 'c', 'd']), { stop: ['b'] }, tasks);
    expect(out.at(-1)).toMatchObject({ type: 'end', matchedStop: 'b' });
    expect(tasks.list()[0]).toMatchObject({ has_next_token: false });
    tasks.holds(0, 0);
    expect(tasks.list()[0]?.tokens).toBe(0);
  });
});
