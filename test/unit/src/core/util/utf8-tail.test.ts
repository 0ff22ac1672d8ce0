/** Where UTF-8 bytes stop being whole, as llama-server's validate_utf8 sees it. */
import { describe, expect, it } from 'vitest';
import { incompleteTail } from '#core/util/utf8-tail';

const bytes = (text: string) => Array.from(new TextEncoder().encode(text));

describe('incompleteTail', () => {
  it('finds the open start of a character at the end, and nothing else', () => {
    const a = bytes('𝔸'); // F0 9D 94 B8
    expect(incompleteTail(a.slice(0, 1))).toBe(1);
    expect(incompleteTail(a.slice(0, 3))).toBe(3);
    expect(incompleteTail(a)).toBe(0);
    expect(incompleteTail([0x20, ...a.slice(0, 2)])).toBe(2);
    expect(incompleteTail([0x9d])).toBe(0); // a stray continuation byte: never a character
    expect(incompleteTail(bytes('é').slice(0, 1))).toBe(1);
    expect(incompleteTail([])).toBe(0);
  });
});
