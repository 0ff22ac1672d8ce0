/**
 * A request's `reasoning_end` controls (llama-server's `/v1/chat/completions/control`): each
 * `ask()` ends the reasoning of the choices running at that moment. A choice takes a `watch()`
 * when it starts and asks it before each token whether to end its reasoning there (once per ask):
 * its sampler then forces the end tag, as llama-server's `common_sampler_reasoning_budget_force`.
 */
export class ReasoningEnd {
  private asked = 0;

  ask(): void {
    this.asked += 1;
  }

  /** For one choice: true once after each `ask` made since the watch began. */
  watch(): () => boolean {
    let seen = this.asked;
    return () => {
      if (seen === this.asked) return false;
      seen = this.asked;
      return true;
    };
  }
}
