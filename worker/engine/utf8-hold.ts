/**
 * Generated text as llama-server releases it: token bytes are decoded once the text so far does
 * not end inside a character. While the tail is the start of a multi-byte character, the whole
 * of it (with the rest of the tokens that brought it) waits; when the generation ends there,
 * what waits is dropped. Bytes that can never form a character (a stray continuation byte)
 * are not held: they decode to U+FFFD.
 */
import { incompleteTail } from '#core/util/utf8-tail';

const decoder = new TextDecoder();

export class Utf8Hold {
  private held: number[] = [];

  /** Adds one token's bytes; returns the text that is now complete ('' while a character is open). */
  push(bytes: readonly number[]): string {
    this.held.push(...bytes);
    if (incompleteTail(this.held) > 0) return '';
    return this.flush();
  }

  /** What is held, decoded now (an open character as U+FFFD): for text that ends here whole. */
  flush(): string {
    const text = decoder.decode(new Uint8Array(this.held));
    this.held = [];
    return text;
  }
}
