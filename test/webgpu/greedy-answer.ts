/**
 * One greedy answer from the engine's own `LlamaWasm` on slot 0, as the WebGPU checks drive it
 * (engine-probe-page.ts in a page, node-engine.ts in Node): the prompt (ids, or text with media
 * through the loaded projector) begun and prefilled in chunks, then `count` tokens sampled
 * greedily with their logprobs, each accepted and pushed (the last one too: a push is what a next
 * token would decode), inside one section of the engine's lock. With `follow`, the tokens pushed are
 * another answer's (teacher forcing), so that two engines' distributions are compared position by
 * position in the same context even where a near-tie makes their argmax differ.
 */
import type { LlamaWasm, RawCandidate } from '../../worker/engine/backends/llamacpp/llama-wasm';

/** A prompt of ids, or of text whose media markers stand for `media` (LlamaWasm.beginWithMedia). */
export type GreedyPrompt = readonly number[] | { text: string; media: readonly Uint8Array[] };

export interface GreedyAnswer {
  /** Each position's argmax (with `follow`: in the followed answer's context). */
  tokens: number[];
  logprobs: number[];
  /** Each position's most likely candidates, GreedyOptions.top of them. */
  candidates: RawCandidate[][];
  /** The prompt's positions (a media item's included). */
  promptTokens: number;
  /** From the begin to the first token sampled (the prompt's prefill), in ms. */
  prefillMs: number;
  /** From the first token sampled to the last, in ms (`tokens.length - 1` pushes and samples). */
  decodeMs: number;
}

export interface GreedyOptions {
  /** The most prompt tokens one prefill call reads. */
  prefillChunk: number;
  /** Called with each push's promise, before it is awaited (a call made while the decode may be suspended). */
  duringPush?: (pushed: Promise<boolean>) => Promise<void>;
  /** How many candidates each position reports (1 when not given). */
  top?: number;
  /** Tokens pushed in place of the sampled ones, one a position (its length bounds the answer). */
  follow?: readonly number[];
}

export async function greedyAnswer(
  engine: LlamaWasm,
  prompt: GreedyPrompt,
  count: number,
  { prefillChunk, duringPush, top = 1, follow }: GreedyOptions,
): Promise<GreedyAnswer> {
  return engine.exclusive(async () => {
    engine.use(0);
    const started = performance.now();
    let promptTokens = 0;
    if ('text' in prompt)
      promptTokens = (await engine.beginWithMedia(prompt.text, prompt.media, false, true, true)).ids.length;
    else {
      await engine.begin([...prompt], false);
      promptTokens = prompt.length;
    }
    while (((await engine.prefill(prefillChunk)) ?? 1) > 0);
    engine.sampler({ temperature: 0 });
    const tokens: number[] = [];
    const logprobs: number[] = [];
    const candidates: RawCandidate[][] = [];
    let firstAt = started;
    let lastAt = started;
    for (let i = 0; i < Math.min(count, follow?.length ?? count); i++) {
      const token = await engine.sample(top, true);
      lastAt = performance.now();
      if (i === 0) firstAt = lastAt;
      tokens.push(token.id);
      logprobs.push(token.logprob);
      candidates.push(token.top);
      const next = follow?.[i] ?? token.id;
      engine.accept(next);
      const pushed = engine.push(next);
      if (duringPush) await duringPush(pushed);
      if (!(await pushed)) break;
    }
    return { tokens, logprobs, candidates, promptTokens, prefillMs: firstAt - started, decodeMs: lastAt - firstAt };
  });
}
