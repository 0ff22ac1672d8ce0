/** True for the bytes GPT-2's byte-level BPE keeps as their own code point. */
function isPrintableByte(b: number): boolean {
  return (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
}

/**
 * GPT-2 `bytes_to_unicode`: entry b is the character that stands for byte b.
 * Printable bytes map to themselves; the rest, in byte order, to U+0100 onwards
 * (so ' ' is 'Ġ' U+0120 and '\n' is 'Ċ' U+010A).
 */
export function gpt2ByteChars(): string[] {
  const chars: string[] = [];
  let next = 0x100;
  for (let b = 0; b < 256; b++) {
    chars.push(String.fromCodePoint(isPrintableByte(b) ? b : next++));
  }
  return chars;
}

/** llama.cpp token types (llama_token_type). */
export const TOKEN_TYPE_NORMAL = 1;
export const TOKEN_TYPE_CONTROL = 3;

/** A byte-level vocabulary: 256 byte tokens followed by control tokens. */
export interface ByteVocab {
  readonly tokens: readonly string[];
  readonly tokenTypes: readonly number[];
}

/** Builds the 256 byte tokens (id = byte value) followed by the given control tokens. */
export function byteVocab(controlTokens: readonly string[]): ByteVocab {
  const tokens = [...gpt2ByteChars(), ...controlTokens];
  const tokenTypes = tokens.map((_, id) => (id < 256 ? TOKEN_TYPE_NORMAL : TOKEN_TYPE_CONTROL));
  return { tokens, tokenTypes };
}
