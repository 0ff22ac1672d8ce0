/**
 * How a token is spelled in logprobs: its text when its bytes are whole UTF-8, else vLLM's
 * `bytes:` form with every byte escaped (`bytes:\x20\xf0\x9d` for a space and the first half of
 * a character), so each token of a split character has its own entry.
 */
const strict = new TextDecoder('utf-8', { fatal: true });

export function tokenSpelling(bytes: readonly number[]): string {
  try {
    return strict.decode(new Uint8Array(bytes));
  } catch {
    return `bytes:${bytes.map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}`;
  }
}
