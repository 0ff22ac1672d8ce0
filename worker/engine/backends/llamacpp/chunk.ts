import type { FinishReason } from '../../../../src/core/openai/types';
import type { GenerationEvent, TokenCandidate, TokenInfo } from '../../backend';

/** One llama-server candidate in its chat-shaped logprobs. */
interface ServerCandidate {
  id?: unknown;
  token?: unknown;
  bytes?: unknown;
  logprob?: unknown;
  top_logprobs?: unknown;
}

const asNumber = (value: unknown, fallback = 0): number => (typeof value === 'number' ? value : fallback);

const isObject = (value: unknown): value is ServerCandidate => typeof value === 'object' && value !== null;

function candidate(raw: ServerCandidate): TokenCandidate {
  const bytes = Array.isArray(raw.bytes) ? raw.bytes.filter((b): b is number => typeof b === 'number') : [];
  return {
    id: asNumber(raw.id, -1),
    text: typeof raw.token === 'string' ? raw.token : '',
    bytes,
    logprob: asNumber(raw.logprob, -Infinity),
  };
}

function tokenInfo(raw: ServerCandidate): TokenInfo {
  const top = Array.isArray(raw.top_logprobs) ? raw.top_logprobs.filter(isObject).map(candidate) : [];
  return { ...candidate(raw), top };
}

/** What one llama-server stream chunk says, as engine events (pure; unit-tested). */
export function chunkEvents(chunk: unknown, wantTokens: boolean): GenerationEvent[] {
  if (typeof chunk !== 'object' || chunk === null) return [];
  const events: GenerationEvent[] = [];
  const progress: unknown = Reflect.get(chunk, 'prompt_progress');
  if (typeof progress === 'object' && progress !== null) {
    events.push({
      type: 'prompt',
      promptTokens: asNumber(Reflect.get(progress, 'total')),
      cachedTokens: asNumber(Reflect.get(progress, 'cache')),
    });
  }
  const timings: unknown = Reflect.get(chunk, 'timings');
  const predicted: unknown =
    typeof timings === 'object' && timings !== null ? Reflect.get(timings, 'predicted_n') : null;
  const choices: unknown = Reflect.get(chunk, 'choices');
  let finish: FinishReason | null = null;
  if (Array.isArray(choices)) {
    for (const choice of choices.filter(isObject)) {
      const text: unknown = Reflect.get(choice, 'text');
      const logprobs: unknown = Reflect.get(choice, 'logprobs');
      const content: unknown =
        typeof logprobs === 'object' && logprobs !== null ? Reflect.get(logprobs, 'content') : null;
      const tokens = wantTokens && Array.isArray(content) ? content.filter(isObject).map(tokenInfo) : null;
      if ((typeof text === 'string' && text) || (tokens && tokens.length > 0)) {
        events.push({
          type: 'text',
          text: typeof text === 'string' ? text : '',
          tokens: wantTokens ? (tokens ?? []) : null,
          ...(typeof predicted === 'number' ? { generated: predicted } : {}),
        });
      }
      const reason: unknown = Reflect.get(choice, 'finish_reason');
      if (reason === 'stop' || reason === 'length') finish = reason;
    }
  }
  const usage: unknown = Reflect.get(chunk, 'usage');
  if (finish && typeof usage === 'object' && usage !== null) {
    const details: unknown = Reflect.get(usage, 'prompt_tokens_details');
    events.push({
      type: 'end',
      finishReason: finish,
      promptTokens: asNumber(Reflect.get(usage, 'prompt_tokens')),
      completionTokens: asNumber(Reflect.get(usage, 'completion_tokens')),
      cachedTokens:
        typeof details === 'object' && details !== null ? asNumber(Reflect.get(details, 'cached_tokens')) : 0,
    });
  }
  return events;
}
