import { createParser } from 'eventsource-parser';

/** Streams `/v1/completions` with fetch and calls `onText` per chunk; resolves with the finish reason. */
export async function streamCompletion(
  body: Record<string, unknown>,
  onText: (text: string) => void,
  signal: AbortSignal,
): Promise<string | null> {
  const response = await fetch('/v1/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
    signal,
  });
  if (!response.ok || !response.body) {
    const error: unknown = await response.json().catch(() => null);
    throw new Error(`HTTP ${response.status}: ${JSON.stringify(error)}`);
  }
  let finish: string | null = null;
  let failure: string | null = null;
  const parser = createParser({
    onEvent(event) {
      if (event.data === '[DONE]') return;
      const chunk: unknown = JSON.parse(event.data);
      if (typeof chunk !== 'object' || chunk === null) return;
      const error: unknown = Reflect.get(chunk, 'error');
      if (error) failure = JSON.stringify(error);
      const choices: unknown = Reflect.get(chunk, 'choices');
      if (!Array.isArray(choices)) return;
      for (const choice of choices) {
        const text: unknown = Reflect.get(choice, 'text');
        const reason: unknown = Reflect.get(choice, 'finish_reason');
        if (typeof text === 'string' && text) onText(text);
        if (typeof reason === 'string') finish = reason;
      }
    },
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(value);
  }
  if (failure) throw new Error(failure);
  return finish;
}
