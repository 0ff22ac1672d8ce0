/** Generated text released as llama-server releases it: an open character waits, whole tokens with it. */
import { describe, expect, it } from 'vitest';
import { Utf8Hold } from '../../../../worker/engine/utf8-hold';

const bytes = (text: string) => Array.from(new TextEncoder().encode(text));

describe('Utf8Hold', () => {
  it('holds a token that opens a character, with its complete text, until the character is whole', () => {
    const hold = new Utf8Hold();
    const a = bytes('𝔸');
    expect(hold.push([0x20, ...a.slice(0, 2)])).toBe('');
    expect(hold.push(a.slice(2, 3))).toBe('');
    expect(hold.push(a.slice(3))).toBe(' 𝔸');
    expect(hold.push(bytes('ok'))).toBe('ok');
  });

  it('passes a stray continuation byte as U+FFFD', () => {
    expect(new Utf8Hold().push([0x9d])).toBe('\uFFFD');
  });
});
