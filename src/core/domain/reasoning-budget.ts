/**
 * A conversation's reasoning budget, as llama-server takes it (`reasoning_budget_tokens`, its
 * alias `thinking_budget_tokens`, `reasoning_budget_message`, `reasoning_control`; Anthropic's
 * `thinking.budget_tokens`): once the reasoning holds `tokens` tokens, the engine writes
 * `message` and the template's end-of-reasoning tag in place of what the model would have
 * written, and the answer follows. `control`: the reasoning may be ended while it runs
 * (`POST /v1/chat/completions/control`, action `reasoning_end`). The engine's sampler does it
 * (llama.cpp's own budget sampler), only for a template with reasoning tags.
 */
import { InvalidRequestError } from './errors';

export interface ReasoningBudget {
  /** The most reasoning tokens; -1: the engine's default (`startInpage({ reasoningBudget })`, else none). */
  tokens: number;
  /** Text written before the end tag when the budget runs out; absent: the engine's default ('' none). */
  message?: string;
  control: boolean;
  /**
   * Anthropic's `thinking.budget_tokens` (a target there): kept where the backend can keep it,
   * not a 400 where it cannot (llama-server's own fields are).
   */
  advisory?: boolean;
}

/** The largest budget llama-server takes (INT32_MAX). */
export const MAX_REASONING_BUDGET = 2 ** 31 - 1;

/** The engine's default budget for requests that set none (llama-server's `--reasoning-budget`, `--reasoning-budget-message`). */
export interface ReasoningBudgetDefault {
  tokens: number;
  message: string;
}

/** No default: requests that set no budget have none. */
export const NO_REASONING_BUDGET: ReasoningBudgetDefault = { tokens: -1, message: '' };

/**
 * `startInpage({ reasoningBudget })`: a token count (-1: none), or `{ tokens, message }`; throws a
 * 400 naming `field` for anything else.
 */
export function readReasoningBudgetOption(value: unknown, field: string): ReasoningBudgetDefault {
  const tokens = typeof value === 'object' && value !== null ? Reflect.get(value, 'tokens') : value;
  const message = typeof value === 'object' && value !== null ? (Reflect.get(value, 'message') ?? '') : '';
  if (typeof tokens !== 'number' || !Number.isInteger(tokens) || tokens < -1 || tokens > MAX_REASONING_BUDGET)
    throw new InvalidRequestError(
      `${field}: ${JSON.stringify(value)} is not a reasoning budget: use an integer from -1 to ${MAX_REASONING_BUDGET}, or { tokens, message }.`,
      field,
    );
  if (typeof message !== 'string')
    throw new InvalidRequestError(`${field}.message: expected a string, but got ${JSON.stringify(message)}.`, field);
  return { tokens, message };
}

/** A request's budget over the engine's default (as llama-server reads its -1 and a missing message). */
export function effectiveBudget(
  request: ReasoningBudget | undefined,
  fallback: ReasoningBudgetDefault,
): Required<Omit<ReasoningBudget, 'advisory'>> {
  return {
    tokens: request !== undefined && request.tokens >= 0 ? request.tokens : fallback.tokens,
    message: request?.message ?? fallback.message,
    control: request?.control ?? false,
  };
}

/** Whether a budget asks anything of the engine (a limit, or the reasoning_end control). */
export const budgetActive = (budget: ReasoningBudget | undefined): budget is ReasoningBudget =>
  budget !== undefined && (budget.tokens >= 0 || budget.control);
