/**
 * How many prompt tokens one engine step reads. The worker answers the Service Worker's
 * keepalives only between steps, and a step longer than KEEPALIVE_TIMEOUT_MS (1.5 s) ends the
 * request with 503 `engine_gone`; an abort, too, lands only between steps. A fixed batch cannot
 * fit every model: 64 tokens take ~0.5 s on the bench's 110 MB models at load 12 on 2 cores, but
 * a 7B model reads ~1-2 tokens a second on one wasm thread, where even 4 tokens are too many.
 *
 * So the size is learned per model from the steps it ran: the next step is sized to take about
 * `targetMs` at the last step's time per token, at most double the last size (an estimate from
 * a small batch overstates a large one's cost per token, never by enough to matter), and between
 * 1 and `most`. A model's first step reads one token.
 */
export class PrefillSteps {
  private current = 1;

  constructor(
    private readonly targetMs = 250,
    private readonly most = 64,
  ) {}

  /** How many tokens the next step should read. */
  get size(): number {
    return this.current;
  }

  /** A step read `tokens` tokens in `ms` milliseconds. */
  took(tokens: number, ms: number): void {
    if (tokens <= 0) return;
    const fit = ms > 0 ? Math.floor((this.targetMs * tokens) / ms) : this.most;
    this.current = Math.max(1, Math.min(this.most, this.current * 2, fit));
  }
}
