import { codePoints, toLegacyLogprobs, type LogprobEntry } from '../../src/core/openai/legacy-logprobs';
import type { LegacyLogprobs, PromptInput } from '../../src/core/openai/types';
import type { LoadedModel } from './backend';

/** The echoed prompt of a choice: its text, and its tokens' logprobs when asked. */
export interface EchoPiece {
  text: string;
  logprobs: LegacyLogprobs | null;
  /** Length of `text` in code points (where the completion's offsets start). */
  points: number;
}

/**
 * Builds `echo`'s prompt piece. With `logprobs`, every prompt token is scored (the first has
 * `null`, as OpenAI answers) and offsets count code points from the start of the prompt.
 */
export async function echoPrompt(model: LoadedModel, prompt: PromptInput, logprobs: number | null, signal: AbortSignal): Promise<EchoPiece> {
  if (logprobs === null) {
    const text = await model.promptText(prompt);
    return { text, logprobs: null, points: codePoints(text) };
  }
  const tokens = await model.scorePrompt(prompt, logprobs, signal);
  const decoder = new TextDecoder();
  const entries: LogprobEntry[] = [];
  let text = '';
  for (const token of tokens) {
    entries.push({ text: token.text, logprob: token.logprob, top: token.top, offset: codePoints(text) });
    text += decoder.decode(new Uint8Array(token.bytes), { stream: true });
  }
  text += decoder.decode();
  return { text, logprobs: toLegacyLogprobs(entries, logprobs), points: codePoints(text) };
}
