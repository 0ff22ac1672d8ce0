/**
 * Runs the Chat tab's `/v1/chat/completions` body with the official `openai` SDK against this
 * page's own endpoint, exactly as the code panel shows it, passing on content and
 * `reasoning_content` as they arrive. Resolves with the finish reason, or null when stopped.
 */
import { playgroundClient, type RunCallbacks } from './run-request';
import type { ChatBody } from './chat-body';
import { RunMeter } from './run-meter';

export interface ChatCallbacks extends RunCallbacks {
  onReasoning(text: string): void;
}

/** `reasoning_content` of a message or delta (an extension the SDK's types do not list). */
function reasoningOf(part: object): string {
  const value: unknown = Reflect.get(part, 'reasoning_content');
  return typeof value === 'string' ? value : '';
}

export async function runChat(body: ChatBody, signal: AbortSignal, callbacks: ChatCallbacks): Promise<string | null> {
  const openai = playgroundClient();
  const meter = new RunMeter(() => callbacks.onWaiting());
  try {
    const { stream, model, messages, ...params } = body;
    const request = { ...params, model, messages };
    if (!stream) {
      const completion = await openai.chat.completions.create({ ...request, stream: false }, { signal });
      const stats = meter.whole(completion.usage);
      const message = completion.choices[0]?.message;
      if (message) callbacks.onReasoning(reasoningOf(message));
      callbacks.onText(message?.content ?? '');
      callbacks.onStats(stats);
      return completion.choices[0]?.finish_reason ?? null;
    }
    let finish: string | null = null;
    const chunks = await openai.chat.completions.create({ ...request, stream: true }, { signal });
    // The SDK ends this loop quietly when `signal` aborts.
    for await (const chunk of chunks) {
      for (const choice of chunk.choices) {
        const reasoning = reasoningOf(choice.delta);
        const content = choice.delta.content ?? '';
        if (reasoning || content) meter.text();
        if (reasoning) callbacks.onReasoning(reasoning);
        if (content) callbacks.onText(content);
        finish = choice.finish_reason ?? finish;
      }
      callbacks.onStats(meter.chunk(chunk.usage));
    }
    return signal.aborted ? null : finish;
  } finally {
    meter.stop();
  }
}
