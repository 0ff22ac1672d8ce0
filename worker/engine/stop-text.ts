/**
 * A choice's completion text while stop strings are watched: text is appended as tokens
 * arrive, `match()` finds the earliest stop at or after a position (across token boundaries),
 * `safeEnd()` tells how far text can be released without possibly releasing the start of a
 * stop (only a tail that is the beginning of some stop is held back), and `take()` hands out
 * released text in order.
 */
export class StopText {
  private text = '';
  private taken = 0;
  /** Stops may only start here or later (text before it came before `min_tokens`). */
  private activeFrom = 0;
  /** The longest stop's length minus one: no tail longer than this can begin a stop. */
  private readonly holdBack: number;
  /** The stops in code-unit order, for prefix look-ups by binary search (sorted on first use). */
  private sorted: string[] | null = null;
  /** No stop can begin before this: a tail that began none then cannot once text is appended. */
  private ruledOut = 0;

  constructor(
    private readonly stops: readonly string[],
    private readonly includeStop: boolean,
  ) {
    // A loop, not Math.max(...spread): a spread of ~100,000+ stops overflows the call stack.
    this.holdBack = stops.reduce((most, stop) => Math.max(most, stop.length - 1), 0);
  }

  get length(): number {
    return this.text.length;
  }

  /** Appends `piece`; with `active` false, no stop may start inside it. */
  append(piece: string, active = true): void {
    this.text += piece;
    if (!active) this.activeFrom = this.text.length;
  }

  /** The earliest stop starting at or after `from`, and where the choice's text then ends. */
  match(from: number): { stop: string; end: number } | null {
    const start = Math.max(from, this.activeFrom);
    let best: { stop: string; at: number } | null = null;
    for (const stop of this.stops) {
      const at = this.text.indexOf(stop, start);
      if (at !== -1 && (best === null || at < best.at)) best = { stop, at };
    }
    if (!best) return null;
    return { stop: best.stop, end: this.includeStop ? best.at + best.stop.length : best.at };
  }

  /**
   * How far text can be released now: up to the earliest tail that could still grow into a stop
   * (`"... se"` with the stop `" setColor"` holds `" se"`; a tail that begins no stop is released).
   */
  safeEnd(): number {
    let at = Math.max(this.ruledOut, this.activeFrom, this.text.length - this.holdBack);
    while (at < this.text.length && !this.beginsStop(this.text.slice(at))) at++;
    this.ruledOut = at;
    let end = at;
    if (end > 0 && end < this.text.length && isHighSurrogate(this.text.charCodeAt(end - 1))) end -= 1;
    return end;
  }

  /** Whether some stop starts with `tail`. */
  private beginsStop(tail: string): boolean {
    const sorted = (this.sorted ??= [...this.stops].sort());
    // The first stop not below `tail` is the one that starts with it, if any does.
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((sorted[mid] ?? '') < tail) low = mid + 1;
      else high = mid;
    }
    return sorted[low]?.startsWith(tail) ?? false;
  }

  /** The text from the last `take` up to `end` (UTF-16 index). */
  take(end: number): string {
    const piece = this.text.slice(this.taken, end);
    this.taken = Math.max(this.taken, end);
    return piece;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
