import type { DraftCounts } from '#core/domain/speculative';
import type { FinishReason, GenerationRequest, PromptInput, TokenLogprob } from '#core/domain/generation';
import { pickParameters, pickSampling } from '#core/domain/parameters';
import type { SlotSettings } from '#core/domain/slots';
import type { ChoiceReasoning, ChoiceRequest, ChoiceRunner, GenerationEvent } from './backend';
import type { EchoPiece } from './echo-prompt';
import { shapeChoice } from './shape-choice';
import type { SlotTaskRun, SlotTasks } from './slot-tasks';

/** One choice's output, piece by piece: the echo first, then the completion. */
export type ChoicePiece =
  /**
   * The backend took the prompt: its generation gave its first event (a prompt too long for the
   * context, or one it refuses, fails before this). Once per choice, before its completion.
   */
  | {
      type: 'accepted';
      /**
       * The prompt's size, where the backend said it on taking the prompt (llama.cpp does; WebLLM
       * at the end), its text where the backend gave it (`/infill`), and the slot it runs on.
       */
      prompt?: { tokens: number; cached: number; text?: string; slot?: number };
    }
  /** `count`: the choice's generated tokens so far. */
  | { type: 'delta'; text: string; tokens: TokenLogprob[] | null; count: number }
  | {
      type: 'end';
      finishReason: FinishReason;
      matchedStop: string | number | null;
      completionTokens: number;
      cumulativeLogprob: number;
      promptTokens: number;
      cachedTokens: number;
      /** Speculative decoding's counts, where it ran and the backend ended the choice (not a stop string). */
      draft?: DraftCounts;
      /** Text of a character the generation ended inside (GenerationEnd's `tail`). */
      tail?: string;
    };

/**
 * Whether the backend must report every token (logprobs, stop token ids and `best_of` need
 * them). Stop strings do not: they are matched on the text, which on llamacpp never holds part of
 * a character, whereas per-token text can (a token of a split character), and the wasm build
 * fails on it (`invalid_utf8_output`).
 */
export function needsTokens(request: GenerationRequest): boolean {
  return request.logprobs !== null || request.stop_token_ids.length > 0 || request.best_of > request.n;
}

/** The backend request for choice `choice` of `prompt` (choice j of a seeded request uses seed + j). */
export function choiceRequest<P = PromptInput>(
  request: GenerationRequest,
  prompt: P,
  choice: number,
  reasoning: ChoiceReasoning | null = null,
): ChoiceRequest<P> {
  return {
    ...(reasoning ? { reasoning } : {}),
    prompt,
    max_tokens: request.max_tokens,
    min_tokens: request.min_tokens,
    suffix: request.suffix,
    ...(request.infill ? { infill: request.infill } : {}),
    ignore_eos: request.ignore_eos,
    token_info: needsTokens(request) ? (request.logprobs ?? 0) : null,
    cache_prompt: request.cache_prompt,
    speculative: request.speculative,
    lora: request.lora,
    grammar: request.grammar,
    ...(request.id_slot === undefined ? {} : { id_slot: request.id_slot }),
    ...pickSampling(request),
    seed: request.seed === null ? null : request.seed + choice,
  };
}

/** What `GET /slots` reports of `request` as its slot's `params`. */
export function slotSettings(request: GenerationRequest): SlotSettings {
  return {
    parameters: pickParameters(request),
    max_tokens: request.max_tokens,
    stop: request.stop,
    stream: request.stream ?? false,
    n_probs: request.logprobs ?? 0,
    lora: request.lora,
  };
}

/**
 * Runs one choice: `accepted` once the backend took the prompt, the echo piece (if any), then
 * the generation shaped by `shapeChoice`. A stop halts only this choice's generation (an inner
 * signal linked to the request's). `model` runs a text or token-id prompt, or (a backend's
 * `conversations`) a conversation. `tasks`: the model's slots' tasks, told of the choice where
 * the backend says which slot it runs on. `reasoning`: a conversation's reasoning budget.
 */
export async function* runChoice<P>(
  model: ChoiceRunner<P>,
  request: GenerationRequest,
  prompt: P,
  choice: number,
  echo: EchoPiece | null,
  signal: AbortSignal,
  tasks: SlotTasks | null = null,
  reasoning: ChoiceReasoning | null = null,
): AsyncGenerator<ChoicePiece> {
  const echoed: ChoicePiece[] = echo ? [{ type: 'delta', text: echo.text, tokens: echo.tokens, count: 0 }] : [];
  // Nothing to generate: the prompt is only counted. A FIM prompt is laid out by the backend, so
  // it is read there (`/infill` with `n_predict: 0` fills the prefix cache, as llama.vim asks).
  if (request.max_tokens === 0 && request.suffix === null) {
    const promptTokens = await model.countPromptTokens(prompt, signal);
    yield { type: 'accepted', prompt: { tokens: promptTokens, cached: 0 } };
    yield* echoed;
    yield {
      type: 'end',
      finishReason: 'length',
      matchedStop: null,
      completionTokens: 0,
      cumulativeLogprob: 0,
      promptTokens,
      cachedTokens: 0,
    };
    return;
  }
  const inner = new AbortController();
  const generation = model
    .generate(choiceRequest(request, prompt, choice, reasoning), inner.signal)
    [Symbol.asyncIterator]();
  const stop = () => inner.abort('choice ended');
  signal.addEventListener('abort', stop, { once: true });
  let promptTokens = -1;
  let cachedTokens = 0;
  let draft: DraftCounts | undefined;
  // Set inside `tap` (a holder, so that the checks below see it set).
  const slot: { task: SlotTaskRun | null } = { task: null };
  async function* tap(events: AsyncIterable<GenerationEvent>): AsyncIterable<GenerationEvent> {
    for await (const event of events) {
      if (event.type === 'prompt' || event.type === 'end') {
        promptTokens = event.promptTokens;
        cachedTokens = event.type === 'prompt' ? event.cachedTokens : event.cachedTokens || cachedTokens;
      }
      if (event.type === 'prompt' && event.slot !== undefined && tasks)
        slot.task = tasks.begin(event.slot, slotSettings(request), event.promptTokens, event.cachedTokens);
      if (event.type === 'text' && event.generated !== undefined)
        slot.task?.token(event.generated, event.text + (event.tokens?.map((token) => token.text).join('') ?? ''));
      // An end-of-generation token has no text: the end's count has it.
      if (event.type === 'end') slot.task?.token(event.completionTokens, '');
      if (event.type === 'end' && event.draft) draft = event.draft;
      yield event;
    }
  }
  try {
    // The first event says the backend took the prompt (its refusal is thrown here instead).
    const first = await generation.next();
    const took = first.done ? undefined : first.value;
    yield {
      type: 'accepted',
      ...(took?.type === 'prompt'
        ? {
            prompt: {
              tokens: took.promptTokens,
              cached: took.cachedTokens,
              ...(took.text === undefined ? {} : { text: took.text }),
              ...(took.slot === undefined ? {} : { slot: took.slot }),
            },
          }
        : {}),
    };
    yield* echoed;
    const options = {
      stops: request.stop,
      stopTokenIds: request.stop_token_ids,
      includeStop: request.include_stop_str_in_output,
      minTokens: request.min_tokens,
      logprobs: request.logprobs,
      offset: echo?.points ?? 0,
    };
    let count = 0;
    for await (const out of shapeChoice(tap(resume(first, generation)), options, stop)) {
      if (out.type === 'delta') {
        count += out.tokens ? out.tokens.length : 1;
        yield { ...out, count };
        continue;
      }
      slot.task?.ended();
      if (promptTokens < 0) promptTokens = await model.countPromptTokens(prompt, signal);
      yield { ...out, promptTokens, cachedTokens, ...(draft ? { draft } : {}) };
    }
  } finally {
    slot.task?.release();
    signal.removeEventListener('abort', stop);
    // A choice left before its generation was read to the end lets the backend go (WebLLM's lock).
    await generation.return?.();
  }
}

/** `first` (already read from `rest`), then the rest; returning this returns `rest`. */
async function* resume<T>(first: IteratorResult<T>, rest: AsyncIterator<T>): AsyncGenerator<T> {
  if (first.done) return;
  yield first.value;
  yield* { [Symbol.asyncIterator]: () => rest };
}
