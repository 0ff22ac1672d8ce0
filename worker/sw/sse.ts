/**
 * Server-sent-events framing as OpenAI streams it: `data: <json>\n\n` (with an `event:` line
 * where the endpoint names its events, as the Responses API does).
 */
const encoder = new TextEncoder();

/** One `data:` frame holding `value` as JSON (after an `event:` line when `event` is given). */
export function sseFrame(value: unknown, event?: string): Uint8Array {
  const head = event === undefined ? '' : `event: ${event}\n`;
  return encoder.encode(`${head}data: ${JSON.stringify(value)}\n\n`);
}

/** The frame that ends a successful chat or completions stream (an error frame ends a failed one without it). */
export const SSE_DONE: Uint8Array = encoder.encode('data: [DONE]\n\n');

export const SSE_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};
