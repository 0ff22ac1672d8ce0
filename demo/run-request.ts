import OpenAI from 'openai';
import type { CompletionBody } from './request-code';
import { runStats, type RunStats } from './run-stats';

export type { RunStats } from './run-stats';

export interface RunCallbacks {
  onText(text: string): void;
  onStats(stats: RunStats): void;
  /** No text yet after `QUEUED_AFTER_MS`: the engine is busy (queued) or still reading the prompt. */
  onWaiting(): void;
}

export const QUEUED_AFTER_MS = 1000;

/** The client the code panel shows: the README's options plus `maxRetries: 0`. */
export function playgroundClient(): OpenAI {
  return new OpenAI({
    baseURL: location.origin + '/v1',
    apiKey: window.inpage?.apiKey ?? 'unused',
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
  });
}

/**
 * Runs `body` with the official `openai` SDK against this page's own endpoint, exactly as the
 * code panel shows it. Resolves with the finish reason, or null when stopped.
 */
export async function runRequest(
  body: CompletionBody,
  signal: AbortSignal,
  callbacks: RunCallbacks,
): Promise<string | null> {
  const openai = playgroundClient();
  const started = performance.now();
  let first: number | null = null;
  let last = started;
  let tokens = 0;
  let promptTokens: number | null = null;
  const waiting = setTimeout(() => first === null && callbacks.onWaiting(), QUEUED_AFTER_MS);
  const stats = (exact: boolean): RunStats => runStats({ started, first, last, promptTokens, tokens, exact });
  try {
    const { stream, ...params } = body;
    if (!stream) {
      const completion = await openai.completions.create({ ...params, stream: false }, { signal });
      // One body at the end: no first-token time, so prefill and decode cannot be told apart.
      last = performance.now();
      tokens = completion.usage?.completion_tokens ?? 0;
      promptTokens = completion.usage?.prompt_tokens ?? null;
      callbacks.onText(completion.choices[0]?.text ?? '');
      callbacks.onStats(stats(true));
      return completion.choices[0]?.finish_reason ?? null;
    }
    let finish: string | null = null;
    const chunks = await openai.completions.create({ ...params, stream: true }, { signal });
    // The SDK ends this loop quietly when `signal` aborts.
    for await (const chunk of chunks) {
      for (const choice of chunk.choices) {
        if (choice.text) {
          first ??= performance.now();
          last = performance.now();
          tokens += 1;
          callbacks.onText(choice.text);
        }
        finish = choice.finish_reason ?? finish;
      }
      if (chunk.usage) {
        tokens = chunk.usage.completion_tokens;
        promptTokens = chunk.usage.prompt_tokens;
      }
      callbacks.onStats(stats(chunk.usage !== undefined && chunk.usage !== null));
    }
    return signal.aborted ? null : finish;
  } finally {
    clearTimeout(waiting);
  }
}
