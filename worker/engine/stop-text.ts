/**
 * A choice's completion text while stop strings are watched: text is appended as tokens
 * arrive, `match()` finds the earliest stop at or after a position (across token boundaries),
 * `safeEnd()` tells how far text can be released without possibly releasing the start of a
 * stop, and `take()` hands out released text in order.
 */
export class StopText {
  private text = '';
  private taken = 0;
  /** Stops may only start here or later (text before it came before `min_tokens`). */
  private activeFrom = 0;
  private readonly holdBack: number;

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

  /** How far text can be released now: everything but what could still begin a stop. */
  safeEnd(): number {
    let end = Math.max(this.activeFrom, this.text.length - this.holdBack);
    if (end > 0 && end < this.text.length && isHighSurrogate(this.text.charCodeAt(end - 1))) end -= 1;
    return Math.min(end, this.text.length);
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
