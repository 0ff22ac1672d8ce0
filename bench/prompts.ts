/** Prompts of the bench: printable ASCII only, so a byte vocabulary gives one token per character. */

const TEXT = 'The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs. ';

/** A prompt of exactly `tokens` bytes. */
export function benchPrompt(tokens: number): string {
  return TEXT.repeat(Math.ceil(tokens / TEXT.length)).slice(0, tokens);
}

/** The short prompt that decode measurements start from. */
export const DECODE_PROMPT = 'Once upon a time';

/** The prompt decode starts from: `context` tokens of bench text, or the short prompt for 0. */
export const decodePrompt = (context: number): string => (context > 0 ? benchPrompt(context) : DECODE_PROMPT);

/** Bans token ids 128..257 (bytes >= 0x80 and the control tokens): random weights must emit ASCII. */
export const ASCII_ONLY: Record<string, number> = Object.fromEntries(
  Array.from({ length: 130 }, (_, i) => [String(128 + i), -100]),
);

/**
 * The fewest prompt tokens a page's warm-up reads before anything is measured. V8 runs a fresh
 * engine's wasm in its baseline tier (Liftoff) and compiles the hot functions again (TurboFan)
 * in the background: after a 256-token warm-up the next 256-token prefills of the Q4_0 bench
 * model ran at 311-334 tok/s on 1 thread, then 551-728 once tiered up (2026-12-04).
 */
export const WARM_TOKENS = 2048;
