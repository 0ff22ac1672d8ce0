/**
 * Generated tokens as llama-server reports them on its native routes. It reports a token (a
 * stream frame, a `completion_probabilities` entry) only when the text generated so far does not
 * end inside a character, and spells that entry with the text the token completed: the pieces of a
 * split character before its last are never reported (the last one's entry reads the whole
 * character), nor those of a character the generation ended inside. Candidates (`top_logprobs`)
 * are spelled as their own bytes, an invalid sequence as U+FFFD. The ids in `tokens` are all kept.
 */
import type { TokenLogprob } from '#core/domain/generation';
import { incompleteTail } from '#core/util/utf8-tail';

const decoder = new TextDecoder();

/** A token's or a text's bytes as llama-server's JSON has them (invalid UTF-8 as U+FFFD). */
export const spelled = (bytes: readonly number[]): string => decoder.decode(new Uint8Array(bytes));

export class ReportedTokens {
  /** Bytes generated since the last reported token. */
  private open: number[] = [];

  /** The tokens of a piece that llama-server reports, each spelled with what it completed, and whether the text is whole after them. */
  take(tokens: readonly TokenLogprob[]): { reported: TokenLogprob[]; whole: boolean } {
    const reported: TokenLogprob[] = [];
    for (const token of tokens) {
      this.open.push(...token.bytes);
      if (incompleteTail(this.open) > 0) continue;
      reported.push({ ...token, text: spelled(this.open), bytes: this.open });
      this.open = [];
    }
    return { reported, whole: this.open.length === 0 };
  }
}
