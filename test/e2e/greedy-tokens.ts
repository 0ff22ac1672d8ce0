/**
 * The Node engine tests' greedy loop (engine-media, engine-prefix-memory): after `begin`, reads
 * the pending prompt in 512-token steps, then samples `count` tokens at temperature 0, each fed
 * to the sampler and decoded; the last is not decoded where `pushLast` is false (llama-server
 * ends there), and an end-of-generation token or a full context ends the loop where `stopAtEnd`.
 * Call it inside the engine's `exclusive` section that began the prompt.
 */
import assert from 'node:assert/strict';
import type { LlamaWasm } from '../../worker/engine/backends/llamacpp/llama-wasm';

export interface GreedyTokens {
  tokens: number[];
  logprobs: number[];
}

export async function greedyTokens(
  engine: LlamaWasm,
  { count = 8, pushLast = true, stopAtEnd = false } = {},
): Promise<GreedyTokens> {
  while (((await engine.prefill(512)) ?? 1) > 0);
  engine.sampler({ temperature: 0 });
  const tokens: number[] = [];
  const logprobs: number[] = [];
  for (let i = 0; i < count; i++) {
    const token = await engine.sample(1, false);
    tokens.push(token.id);
    logprobs.push(token.logprob);
    engine.accept(token.id);
    if (!pushLast && i === count - 1) break;
    if (stopAtEnd && engine.isEndOfGeneration(token.id)) break;
    const pushed = await engine.push(token.id);
    if (stopAtEnd && !pushed) break;
    assert.ok(pushed, 'the context has room for the token');
  }
  return { tokens, logprobs };
}
