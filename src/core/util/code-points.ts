/** Length of a string in code points (offsets are counted as peers written in Python count them). */
export function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
