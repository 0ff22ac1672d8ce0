import { InvalidRequestError } from '../domain/errors';
import type { PromptInput } from './types';

const isTokenId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

const invalid = () =>
  new InvalidRequestError(
    "Invalid value for 'prompt': expected a string, an array of strings, an array of token ids, or an array of those.",
    'prompt',
  );

/**
 * Normalises `prompt` (string | string[] | token ids | token-id arrays | a mix of strings
 * and token-id arrays) to one entry per prompt. Empty batches and empty token arrays are 400.
 */
export function normalizePrompt(prompt: unknown): PromptInput[] {
  if (typeof prompt === 'string') return [prompt];
  if (!Array.isArray(prompt) || prompt.length === 0) throw invalid();
  if (prompt.every(isTokenId)) return [prompt];
  return prompt.map((entry: unknown) => {
    if (typeof entry === 'string') return entry;
    if (Array.isArray(entry) && entry.length > 0 && entry.every(isTokenId)) return entry;
    throw invalid();
  });
}
