/**
 * `/infill`'s answers in llama-server's own completion shape (not OpenAI's). One body:
 * `{index, content, tokens, id_slot, stop: true, model, tokens_predicted, tokens_evaluated,
 * generation_settings, prompt, has_new_line, truncated, stop_type, stopping_word, tokens_cached,
 * timings}`, `tokens` the ids only with `return_tokens`, `prompt` the FIM prompt as laid out
 * (control tokens as text), `truncated` when the context's end (prompt + completion = n_ctx)
 * stopped it. Streamed: one `data:` frame per token
 * (`{index, content, tokens, stop: false, id_slot: -1, tokens_predicted, tokens_evaluated}`),
 * then that body with empty `content` and `tokens` as the last frame, and no `[DONE]`, as
 * llama-server streams it. `stop_type` is `eos` (an end-of-generation token or a stop token
 * id), `word` (a stop string: `stopping_word`), or `limit` (`n_predict` or the context).
 */
import type { TokenCounts } from '#core/domain/generation';
import type { EngineOutput, JsonFormatter, StreamFormatter } from '../../engine-response';
import { sseFrame } from '../../sse';
import { generationSettings } from './generation-settings';
import { nativeStop, nativeTimings, truncatedAt } from './native-timings';
import { ReportedTokens } from './reported-tokens';
import type { InfillBody } from './validate-infill';

type Progress = Exclude<EngineOutput, { type: 'generation.done' }>;
type ChoiceEnd = Extract<Progress, { type: 'generation.choice-end' }>;

/** What the answer's last part needs, gathered from the events. */
class InfillState {
  content = '';
  tokens: number[] = [];
  stopType = 'none';
  stoppingWord = '';
  /** The prompt's size, from the engine's `generation.prompt` (streamed frames carry it). */
  promptTokens = 0;
  /** The prompt as laid out (llama-server's `prompt`), and the model's context, from `generation.prompt`. */
  prompt = '';
  contextLength = Infinity;
  /** The model's slot it ran on, from `generation.prompt` (0 where the backend names none). */
  slot = 0;
  private readonly started = performance.now();
  private firstPiece: number | null = null;
  private readonly reported = new ReportedTokens();

  constructor(private readonly body: InfillBody) {}

  took(event: Extract<Progress, { type: 'generation.prompt' }>): void {
    this.promptTokens = event.counts?.prompt ?? 0;
    this.prompt = event.text ?? '';
    this.contextLength = event.context_length ?? Infinity;
    this.slot = event.slot ?? 0;
  }

  /** Takes a piece: its ids, and whether the text is whole after it (llama-server streams a frame then). */
  piece(event: Extract<Progress, { type: 'generation.piece' }>): { ids: number[]; whole: boolean } {
    this.firstPiece ??= performance.now();
    this.content += event.text;
    const tokens = event.tokens ?? [];
    const ids = tokens.map((token) => token.id);
    this.tokens.push(...ids);
    return { ids, whole: this.reported.take(tokens).whole };
  }

  end(event: ChoiceEnd): void {
    // Unstreamed, llama-server's content ends with the open character (as U+FFFD) where generation ended in one.
    this.content += event.tail ?? '';
    ({ stopType: this.stopType, stoppingWord: this.stoppingWord } = nativeStop(event));
  }

  /** The whole answer (streamed: its last frame, without the text and ids sent before). */
  final(counts: TokenCounts, streamed: boolean) {
    const now = performance.now();
    const promptEnd = this.firstPiece ?? now;
    return {
      index: 0,
      content: streamed ? '' : this.content,
      tokens: !streamed && this.body.return_tokens ? this.tokens : [],
      id_slot: this.slot,
      stop: true,
      model: this.body.model,
      tokens_predicted: counts.completion,
      tokens_evaluated: counts.prompt,
      generation_settings: generationSettings({ ...this.body, parameters: this.body, n_probs: 0 }),
      prompt: this.prompt,
      has_new_line: this.content.includes('\n'),
      truncated: truncatedAt(this.stopType, counts.prompt + counts.completion, this.contextLength),
      stop_type: this.stopType,
      stopping_word: this.stoppingWord,
      // The tokens in the slot's cache: the prompt and every generated token but the last (never evaluated).
      tokens_cached: counts.prompt + Math.max(0, counts.completion - 1),
      timings: nativeTimings({
        prompt: counts.prompt,
        cached: counts.cached,
        predicted: counts.completion,
        promptMs: promptEnd - this.started,
        predictedMs: now - promptEnd,
      }),
    };
  }
}

export function infillJson(body: InfillBody): JsonFormatter {
  const state = new InfillState(body);
  return {
    add(event) {
      if (event.type === 'generation.prompt') state.took(event);
      else if (event.type === 'generation.piece') state.piece(event);
      else if (event.type === 'generation.choice-end') state.end(event);
    },
    body: (counts) => state.final(counts, false),
  };
}

export function infillStream(body: InfillBody): StreamFormatter {
  const state = new InfillState(body);
  return {
    frames(event) {
      if (event.type === 'generation.prompt') state.took(event);
      if (event.type === 'generation.choice-end') state.end(event);
      if (event.type !== 'generation.piece') return [];
      const { ids: tokens, whole } = state.piece(event);
      // No frame for tokens that leave a character open (llama-server streams none for them).
      if (event.text === '' && (tokens.length === 0 || !whole)) return [];
      return [
        sseFrame({
          index: 0,
          content: event.text,
          tokens,
          stop: false,
          id_slot: -1,
          tokens_predicted: event.counts?.completion ?? state.tokens.length,
          tokens_evaluated: state.promptTokens,
        }),
      ];
    },
    done: (counts) => [sseFrame(state.final(counts, true))],
  };
}
