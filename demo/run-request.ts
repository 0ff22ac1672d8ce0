import OpenAI from 'openai';
import type { CompletionBody } from './request-code';
import { RunMeter } from './run-meter';
import type { RunStats } from './run-stats';

export type { RunStats } from './run-stats';

export interface RunCallbacks {
  onText(text: string): void;
  onStats(stats: RunStats): void;
  /** No text yet after `QUEUED_AFTER_MS`: the engine is busy (queued) or still reading the prompt. */
  onWaiting(): void;
}

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
  const meter = new RunMeter(() => callbacks.onWaiting());
  try {
    const { stream, ...params } = body;
    if (!stream) {
      const completion = await openai.completions.create({ ...params, stream: false }, { signal });
      const stats = meter.whole(completion.usage);
      callbacks.onText(completion.choices[0]?.text ?? '');
      callbacks.onStats(stats);
      return completion.choices[0]?.finish_reason ?? null;
    }
    let finish: string | null = null;
    const chunks = await openai.completions.create({ ...params, stream: true }, { signal });
    // The SDK ends this loop quietly when `signal` aborts.
    for await (const chunk of chunks) {
      for (const choice of chunk.choices) {
        if (choice.text) {
          meter.text();
          callbacks.onText(choice.text);
        }
        finish = choice.finish_reason ?? finish;
      }
      callbacks.onStats(meter.chunk(chunk.usage));
    }
    return signal.aborted ? null : finish;
  } finally {
    meter.stop();
  }
}
