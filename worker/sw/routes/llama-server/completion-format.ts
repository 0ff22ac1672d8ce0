/**
 * `/completion`'s answers in llama-server's own shape. One body per prompt (several prompts: an
 * array of them): `{index, content, tokens, id_slot, stop: true, model, tokens_predicted,
 * tokens_evaluated, generation_settings, prompt, has_new_line, truncated, stop_type,
 * stopping_word, tokens_cached, timings}`, with `completion_probabilities` when `n_probs` > 0,
 * `tokens` the ids only with `return_tokens`. Streamed: one `data:` frame per piece
 * (`{index, content, tokens, stop: false, id_slot: -1, tokens_predicted, tokens_evaluated}`, and
 * its `completion_probabilities`), then each prompt's body with empty `content` and `tokens` as
 * its last frame when it ends, and no `[DONE]`, as llama-server streams it. `timings` are
 * measured here, from the engine's events.
 */
import type { DraftCounts } from '#core/domain/speculative';
import type { TokenLogprob } from '#core/domain/generation';
import type { EngineOutput, JsonFormatter, StreamFormatter } from '../../engine-response';
import { sseFrame } from '../../sse';
import { generationSettings } from './generation-settings';
import { nativeStop, nativeTimings, truncatedAt } from './native-timings';
import { ReportedTokens, spelled } from './reported-tokens';
import type { NativeCompletionBody } from './validate-native-completion';

type Progress = Exclude<EngineOutput, { type: 'generation.done' }>;
type Piece = Extract<Progress, { type: 'generation.piece' }>;
type ChoiceEnd = Extract<Progress, { type: 'generation.choice-end' }>;

/** llama-server's entry of `completion_probabilities`. */
function probability(token: TokenLogprob) {
  return {
    id: token.id,
    token: token.text,
    bytes: token.bytes,
    logprob: token.logprob ?? 0,
    top_logprobs: (token.top ?? []).map((c) => ({
      id: c.id,
      token: spelled(c.bytes),
      bytes: c.bytes,
      logprob: c.logprob,
    })),
  };
}

/** One prompt's answer as it comes together. */
class NativeChoice {
  content = '';
  tokens: number[] = [];
  probabilities: Array<ReturnType<typeof probability>> = [];
  stopType = 'none';
  stoppingWord = '';
  promptTokens: number | null = null;
  cached = 0;
  predicted = 0;
  /** Speculative decoding's counts, where it ran. */
  draft: DraftCounts | null = null;
  /** The model's context, from `generation.prompt` (for `truncated`). */
  private contextLength = Infinity;
  /** The model's slot it ran on, from `generation.prompt` (0 where the backend names none). */
  private slot = 0;
  private readonly reported = new ReportedTokens();
  private firstPiece: number | null = null;
  private ended: number | null = null;

  constructor(
    readonly index: number,
    private started: number,
  ) {}

  /** The engine took the prompt (prefill starts now). */
  prompt(event: Extract<Progress, { type: 'generation.prompt' }>): void {
    this.started = performance.now();
    if (event.counts) [this.promptTokens, this.cached] = [event.counts.prompt, event.counts.cached];
    this.contextLength = event.context_length ?? Infinity;
    this.slot = event.slot ?? 0;
  }

  /** Takes a piece; `whole`: the text does not end inside a character after it (llama-server streams a frame then). */
  piece(event: Piece): { ids: number[]; probabilities: Array<ReturnType<typeof probability>>; whole: boolean } {
    this.firstPiece ??= performance.now();
    this.content += event.text;
    const tokens = event.tokens ?? [];
    const ids = tokens.map((token) => token.id);
    const { reported, whole } = this.reported.take(tokens);
    const probabilities = reported.map(probability);
    this.tokens.push(...ids);
    this.probabilities.push(...probabilities);
    return { ids, probabilities, whole };
  }

  end(event: ChoiceEnd, predicted: number): void {
    this.ended = performance.now();
    // Where generation ended inside a character, llama-server's unstreamed content ends with it (as
    // U+FFFD); the tokens that brought it are in `tokens` but were never reported (no probabilities).
    this.content += event.tail ?? '';
    this.predicted = predicted;
    this.draft = event.draft ?? null;
    ({ stopType: this.stopType, stoppingWord: this.stoppingWord } = nativeStop(event));
  }

  /** The whole answer (streamed: its last frame, without the text and ids sent before). */
  final(body: NativeCompletionBody, streamed: boolean) {
    const now = this.ended ?? performance.now();
    const promptEnd = this.firstPiece ?? now;
    const prompt = this.promptTokens ?? 0;
    const predicted = this.predicted;
    return {
      index: this.index,
      content: streamed ? '' : this.content,
      tokens: !streamed && body.return_tokens ? this.tokens : [],
      id_slot: this.slot,
      stop: true,
      model: body.model,
      tokens_predicted: predicted,
      tokens_evaluated: prompt,
      generation_settings: generationSettings({ ...body, parameters: body }),
      prompt: body.texts[this.index] ?? '',
      has_new_line: this.content.includes('\n'),
      truncated: truncatedAt(this.stopType, prompt + predicted, this.contextLength),
      stop_type: this.stopType,
      stopping_word: this.stoppingWord,
      // The tokens in the slot's cache: the prompt and every generated token but the last (never evaluated).
      tokens_cached: prompt + Math.max(0, predicted - 1),
      timings: nativeTimings({
        prompt,
        cached: this.cached,
        predicted,
        promptMs: promptEnd - this.started,
        predictedMs: now - promptEnd,
        draft: this.draft,
      }),
      ...(body.n_probs > 0 && !streamed ? { completion_probabilities: this.probabilities } : {}),
    };
  }
}

/** Every prompt's choice, fed the engine's events (prompts run one after another). */
class NativeChoices {
  private readonly choices = new Map<number, NativeChoice>();
  /** Generated tokens counted by the choices that ended (the engine's counts run over the request). */
  private predictedBefore = 0;
  private promptsBefore = 0;
  private lastEnd = performance.now();

  choice(index: number): NativeChoice {
    let choice = this.choices.get(index);
    if (!choice) this.choices.set(index, (choice = new NativeChoice(index, this.lastEnd)));
    return choice;
  }

  /** Ends choice `index`; its counts from the running counts of the request (`continuous_usage`). */
  end(event: ChoiceEnd): NativeChoice {
    const choice = this.choice(event.index);
    const counts = event.counts ?? { prompt: 0, completion: 0, cached: 0 };
    choice.end(event, counts.completion - this.predictedBefore);
    choice.promptTokens ??= counts.prompt - this.promptsBefore;
    this.predictedBefore = counts.completion;
    this.promptsBefore = counts.prompt;
    this.lastEnd = performance.now();
    return choice;
  }

  all(): NativeChoice[] {
    return [...this.choices.values()].sort((a, b) => a.index - b.index);
  }
}

export function nativeCompletionJson(body: NativeCompletionBody): JsonFormatter {
  const choices = new NativeChoices();
  return {
    add(event) {
      if (event.type === 'generation.prompt') choices.choice(event.index).prompt(event);
      else if (event.type === 'generation.piece') choices.choice(event.index).piece(event);
      else choices.end(event);
    },
    body: () => {
      const answers = choices.all().map((choice) => choice.final(body, false));
      return body.prompts.length === 1 ? answers[0] : answers;
    },
  };
}

export function nativeCompletionStream(body: NativeCompletionBody): StreamFormatter {
  const choices = new NativeChoices();
  return { frames, done: () => [] };

  function frames(event: Progress): Uint8Array[] {
    if (event.type === 'generation.prompt') {
      choices.choice(event.index).prompt(event);
      return [];
    }
    if (event.type === 'generation.choice-end') return [sseFrame(choices.end(event).final(body, true))];
    const choice = choices.choice(event.index);
    const { ids, probabilities, whole } = choice.piece(event);
    // No frame for tokens that leave a character open (llama-server streams none for them).
    if (event.text === '' && (ids.length === 0 || !whole)) return [];
    return [
      sseFrame({
        index: event.index,
        content: event.text,
        tokens: ids,
        stop: false,
        id_slot: -1,
        tokens_predicted: choice.tokens.length,
        tokens_evaluated: choice.promptTokens ?? 0,
        ...(body.n_probs > 0 ? { completion_probabilities: probabilities } : {}),
      }),
    ];
  }
}
