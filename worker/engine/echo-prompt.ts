/** `echo`: a choice's prompt as its first piece, scored token by token when logprobs are asked. */
import { codePoints } from '#core/util/code-points';
import type { PromptInput, TokenLogprob } from '#core/domain/generation';
import type { LoadedModel } from './backend';
import type { LoraScale } from '#core/domain/lora';
import { Utf8Hold } from './utf8-hold';

/** The echoed prompt of a choice: its text, and its tokens when asked. */
export interface EchoPiece {
  text: string;
  tokens: TokenLogprob[] | null;
  /** Length of `text` in code points (where the completion's offsets start). */
  points: number;
}

/**
 * Builds `echo`'s prompt piece. With `logprobs`, every prompt token is scored (the first has
 * `null`, as OpenAI answers) and offsets count code points from the start of the prompt.
 */
export async function echoPrompt(
  model: LoadedModel,
  prompt: PromptInput,
  logprobs: number | null,
  signal: AbortSignal,
  lora: readonly LoraScale[] = [],
): Promise<EchoPiece> {
  if (logprobs === null) {
    const text = await model.promptText(prompt);
    return { text, tokens: null, points: codePoints(text) };
  }
  const scored = await model.scorePrompt(prompt, logprobs, signal, lora);
  // Offsets as the completion's: the tokens of a split character all start where it starts.
  const utf8 = new Utf8Hold();
  const tokens: TokenLogprob[] = [];
  let text = '';
  for (const token of scored) {
    tokens.push({ ...token, top: token.top?.slice(0, logprobs) ?? null, offset: codePoints(text) });
    text += utf8.push(token.bytes);
  }
  text += utf8.flush();
  return { text, tokens, points: codePoints(text) };
}
