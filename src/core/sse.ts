/** Server-sent-events framing as OpenAI streams it: `data: <json>\n\n`, ended by `data: [DONE]`. */
const encoder = new TextEncoder();

/** One `data:` frame holding `value` as JSON. */
export function sseFrame(value: unknown): Uint8Array {
  return encoder.encode(`data: ${JSON.stringify(value)}\n\n`);
}

/** The frame that ends every successful (and every failed) stream. */
export const SSE_DONE: Uint8Array = encoder.encode('data: [DONE]\n\n');

export const SSE_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};
