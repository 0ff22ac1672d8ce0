/** The parsed form of a regular expression, as far as a grammar can express it. */
import type { CodeRange } from './gbnf-literal';

export type RegexNode =
  | { readonly type: 'empty' }
  | { readonly type: 'char'; readonly cp: number }
  | { readonly type: 'set'; readonly ranges: readonly CodeRange[] }
  | { readonly type: 'seq'; readonly items: readonly RegexNode[] }
  | { readonly type: 'alt'; readonly options: readonly RegexNode[] }
  | { readonly type: 'repeat'; readonly node: RegexNode; readonly min: number; readonly max: number | null };

/** A whole pattern: its body and whether it was anchored with a leading `^` / trailing `$`. */
export interface ParsedRegex {
  readonly node: RegexNode;
  readonly anchoredStart: boolean;
  readonly anchoredEnd: boolean;
}
