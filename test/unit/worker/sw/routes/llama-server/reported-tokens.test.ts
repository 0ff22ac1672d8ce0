/** Which generated tokens llama-server's native routes report, and how each entry is spelled. */
import { describe, expect, it } from 'vitest';
import type { TokenLogprob } from '#core/domain/generation';
import { ReportedTokens, spelled } from '../../../../../../worker/sw/routes/llama-server/reported-tokens';

const token = (id: number, bytes: number[]): TokenLogprob => ({
  id,
  text: spelled(bytes),
  bytes,
  logprob: -1,
  top: null,
  offset: 0,
});

describe('ReportedTokens', () => {
  it('reports a split character once, at its last token, spelled whole', () => {
    const tokens = new ReportedTokens();
    const a = [0x20, 0xf0, 0x9d, 0x94, 0xb8]; // " 𝔸"
    expect(tokens.take([token(1, a.slice(0, 3))])).toEqual({ reported: [], whole: false });
    expect(tokens.take([token(2, [0x94])]).whole).toBe(false);
    const last = tokens.take([token(3, [0xb8]), token(4, [0x61])]);
    expect(last.whole).toBe(true);
    expect(last.reported.map((t) => [t.id, t.text, t.bytes])).toEqual([
      [3, ' 𝔸', a],
      [4, 'a', [0x61]],
    ]);
  });

  it('reports a stray continuation byte at once, as U+FFFD', () => {
    const { reported, whole } = new ReportedTokens().take([token(5, [0x9d])]);
    expect(whole).toBe(true);
    expect(reported.map((t) => t.text)).toEqual(['\uFFFD']);
  });
});
