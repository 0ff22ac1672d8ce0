/** Shared pieces of the conformance specs: the model's closed-form distribution and SDK calls. */
import type { Page } from 'playwright';

const Z = Math.E ** 2 + Math.E + 1;
/** ln P of the top three successors of a letter or digit (e²/Z, e/Z, 1/Z). */
export const LOGPROB = { first: Math.log(Math.E ** 2 / Z), second: Math.log(Math.E / Z), third: Math.log(1 / Z) };

/** The legacy completion choice as the SDK returns it. */
export interface Choice {
  text: string;
  index: number;
  finish_reason: string | null;
  matched_stop?: string | number | null;
  logprobs: {
    tokens: string[];
    token_logprobs: Array<number | null>;
    top_logprobs: Array<Record<string, number> | null>;
    text_offset: number[];
  } | null;
}

export interface CompletionResult {
  choices: Choice[];
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    prompt_tokens_details?: { cached_tokens: number };
  };
}

/** `openai.completions.create` (non-stream) inside the page; extra fields pass through. */
export function create(page: Page, params: Record<string, unknown>): Promise<CompletionResult> {
  return page.evaluate(async (params) => {
    const client = new window.OpenAI({
      baseURL: location.origin + '/v1',
      apiKey: 'unused',
      dangerouslyAllowBrowser: true,
    });
    const completion = await client.completions.create({ model: 'inpage-test', prompt: '', ...params, stream: false });
    return JSON.parse(JSON.stringify(completion));
  }, params);
}

/** The same request streamed through the SDK, reassembled per choice index. */
export function createStreamed(
  page: Page,
  params: Record<string, unknown>,
): Promise<{
  choices: Choice[];
  chunks: number;
  finishes: Record<number, number>;
  lastFinishIsLast: boolean;
  usage: unknown;
}> {
  return page.evaluate(async (params) => {
    const client = new window.OpenAI({
      baseURL: location.origin + '/v1',
      apiKey: 'unused',
      dangerouslyAllowBrowser: true,
    });
    const stream = await client.completions.create({ model: 'inpage-test', prompt: '', ...params, stream: true });
    const choices = new Map<number, Choice>();
    const finishes: Record<number, number> = {};
    let chunks = 0;
    let lastFinishIsLast = true;
    let usage: unknown = null;
    for await (const chunk of stream) {
      chunks += 1;
      if (chunk.usage) usage = chunk.usage;
      for (const part of chunk.choices) {
        const choice = choices.get(part.index) ?? { text: '', index: part.index, finish_reason: null, logprobs: null };
        if (choice.finish_reason !== null) lastFinishIsLast = false;
        choice.text += part.text;
        const logprobs = part.logprobs as Choice['logprobs'];
        if (logprobs) {
          choice.logprobs ??= { tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] };
          choice.logprobs.tokens.push(...logprobs.tokens);
          choice.logprobs.token_logprobs.push(...logprobs.token_logprobs);
          choice.logprobs.top_logprobs.push(...logprobs.top_logprobs);
          choice.logprobs.text_offset.push(...logprobs.text_offset);
        }
        if (part.finish_reason) {
          choice.finish_reason = part.finish_reason;
          finishes[part.index] = (finishes[part.index] ?? 0) + 1;
        }
        choices.set(part.index, choice);
      }
    }
    return {
      choices: [...choices.values()].sort((a, b) => a.index - b.index),
      chunks,
      finishes,
      lastFinishIsLast,
      usage,
    };
  }, params);
}

export function close(actual: number | null | undefined, expected: number, tolerance = 1e-3): boolean {
  return typeof actual === 'number' && Math.abs(actual - expected) <= tolerance;
}
