/**
 * A conversation's reasoning budget, as llama-server takes it (`reasoning_budget_tokens`, its
 * alias `thinking_budget_tokens`, `reasoning_budget_message`, `reasoning_control`; Anthropic's
 * `thinking.budget_tokens`): once the reasoning holds `tokens` tokens, the engine writes
 * `message` and the template's end-of-reasoning tag in place of what the model would have
 * written, and the answer follows. `control`: the reasoning may be ended while it runs
 * (`POST /v1/chat/completions/control`, action `reasoning_end`). The engine's sampler does it
 * (llama.cpp's own budget sampler), only for a template with reasoning tags.
 */
export interface ReasoningBudget {
  /** The most reasoning tokens; -1: no limit. */
  tokens: number;
  /** Text written before the end tag when the budget runs out ('' none). */
  message: string;
  control: boolean;
  /**
   * Anthropic's `thinking.budget_tokens` (a target there): kept where the backend can keep it,
   * not a 400 where it cannot (llama-server's own fields are).
   */
  advisory?: boolean;
}

/** The largest budget llama-server takes (INT32_MAX). */
export const MAX_REASONING_BUDGET = 2 ** 31 - 1;

/** Whether a budget asks anything of the engine (a limit, or the reasoning_end control). */
export const budgetActive = (budget: ReasoningBudget | undefined): budget is ReasoningBudget =>
  budget !== undefined && (budget.tokens >= 0 || budget.control);
