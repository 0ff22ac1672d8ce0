/**
 * One generation of about `seconds` through the Service Worker, run inside the page (passed to
 * `page.evaluate` by soak.ts in Chromium and firefox-soak.ts in Firefox, so it closes over
 * nothing): a warm-up measures tokens/s, then one request holds enough prompts of `perPrompt`
 * tokens on `inpage-test` to keep the engine busy that long, streamed or not. Says whether it
 * completed, ended with an error (frame), or was cut or broke, and how long it ran.
 */
export interface LongGeneration {
  seconds: number;
  perPrompt: number;
  stream: boolean;
}

export interface LongGenerationResult {
  tokensPerSecond: number;
  prompts: number;
  seconds: number;
  outcome: string;
}

export async function longGeneration({ seconds, perPrompt, stream }: LongGeneration): Promise<LongGenerationResult> {
  const post = (body: object) =>
    fetch('/v1/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'inpage-test', temperature: 0, ...body }),
    });
  const warmStart = performance.now();
  await (await post({ prompt: 'hi ', max_tokens: 500, ignore_eos: true })).json();
  const tokensPerSecond = 500 / ((performance.now() - warmStart) / 1000);
  const prompts = Math.max(1, Math.ceil((tokensPerSecond * seconds * 1.1) / perPrompt));
  const start = performance.now();
  let outcome: string;
  try {
    const response = await post({
      prompt: Array.from({ length: prompts }, () => 'hi '),
      max_tokens: perPrompt,
      ignore_eos: true,
      stream,
    });
    if (stream) {
      // Only the stream's last 2,000 characters are kept: it is tens of megabytes.
      let tail = '';
      let bytes = 0;
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.length;
        tail = (tail + value).slice(-2000);
      }
      const error = tail.lastIndexOf('data: {"error"');
      outcome = tail.includes('data: [DONE]')
        ? 'completed with [DONE]'
        : error >= 0
          ? `error frame: ${tail.slice(error, error + 300).trim()}`
          : `cut: ${bytes} characters, no [DONE]`;
    } else {
      const text = await response.text();
      const body = text ? (JSON.parse(text) as { choices?: unknown[]; error?: unknown }) : null;
      outcome = !body
        ? `cut: status ${response.status}, empty body`
        : body.choices
          ? `completed: ${body.choices.length} choices`
          : `error: ${JSON.stringify(body.error)}`;
    }
  } catch (error) {
    outcome = `broke: ${String(error)}`;
  }
  return { tokensPerSecond, prompts, seconds: (performance.now() - start) / 1000, outcome };
}
