/**
 * How many trailing characters of `text` could be the start of `tag` (so they must be held back
 * until the next piece says whether the tag follows). 0 when no suffix is a prefix of the tag.
 */
export function partialTagLength(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}

/** Length of the trailing whitespace of `text`. */
export function trailingSpace(text: string): number {
  return text.length - text.trimEnd().length;
}
