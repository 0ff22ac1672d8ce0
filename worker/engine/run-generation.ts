/**
 * Runs one neutral generation request on a loaded model and posts its events to the SW:
 * pieces, one `choice-end` per choice, then exactly one `done` or `error`. The engine's shared
 * layer: batches, `n`, `best_of`, `echo` and token counts, the same for every backend.
 */
import { checkCapabilities } from '../../src/core/capabilities';
import { InvalidRequestError, toOpenAIError } from '../../src/core/errors';
import type { ChatPrompt } from '../../src/core/chat-prompt';
import { isChatPrompt, type GenerationRequest, type PromptInput, type TokenCounts } from '../../src/core/generation';
import { message, type EngineToSw } from '../../src/core/protocol';
import type { ChoiceRunner, LoadedModel } from './backend';
import { renderChatPrompt } from './chat/render-prompt';
import { echoPrompt, type EchoPiece } from './echo-prompt';
import { choiceRequest, runChoice, type ChoicePiece } from './run-choice';

/** Posts one typed engine event to the SW. */
export const postToSw = <K extends keyof EngineToSw>(port: MessagePort, type: K, payload: EngineToSw[K]) =>
  port.postMessage(message<EngineToSw, K>(type, payload));

type EndPiece = Extract<ChoicePiece, { type: 'end' }>;

/** Running token counts of one request. */
class Tally {
  prompt = 0;
  completion = 0;
  cached = 0;
  /** Tokens of the choice in progress (for continuous counts). */
  current = 0;

  snapshot(): TokenCounts {
    return { prompt: this.prompt, completion: this.completion + this.current, cached: this.cached };
  }
}

/**
 * Runs `request` on `model` and streams its events over `port`. Prompts run one after another;
 * each has `n` choices (index = prompt * n + choice), or `best_of` candidates of which the `n`
 * with the highest cumulative logprob are posted. Nothing is posted once `signal` aborted.
 * Resolves with the tokens counted so far.
 */
export async function runGeneration(
  model: LoadedModel,
  request: GenerationRequest,
  port: MessagePort,
  signal: AbortSignal,
): Promise<TokenCounts> {
  const tally = new Tally();
  const context: RunContext = { request, port, signal, tally };
  try {
    checkCapabilities(model.capabilities, request);
    for (const [p, requested] of request.prompts.entries()) {
      if (isChatPrompt(requested) && model.conversations) {
        // The backend renders the conversation with its own template.
        if (request.echo) throw new InvalidRequestError(ECHO_CHAT, 'echo', 'unsupported_parameter');
        const { conversations } = model;
        const { opensReasoning } = conversations.prepare(choiceRequest(request, requested.chat, 0));
        postToSw(port, 'generation.prompt', { index: p, opens_reasoning: opensReasoning });
        if (!(await runPrompt(conversations, requested.chat, null, p, context))) return tally.snapshot();
        continue;
      }
      const prompt = isChatPrompt(requested) ? await renderFor(model, requested.chat, p, port) : requested;
      const echo = request.echo ? await echoPrompt(model, prompt, request.logprobs, signal) : null;
      if (!(await runPrompt(model, prompt, echo, p, context))) return tally.snapshot();
    }
    postToSw(port, 'generation.done', { counts: tally.snapshot() });
  } catch (error) {
    if (!signal.aborted) postToSw(port, 'generation.error', { error: toOpenAIError(error).toWire() });
  }
  return tally.snapshot();
}

const ECHO_CHAT = "'echo' is not supported for conversations on this model's backend (it renders them itself).";

/** What every prompt of one request shares. */
interface RunContext {
  request: GenerationRequest;
  port: MessagePort;
  signal: AbortSignal;
  tally: Tally;
}

/**
 * Runs the choices of prompt `p` on `runner` (a model, or its `conversations`) and posts them:
 * `n` choices (index = p * n + choice), or `best_of` candidates of which the `n` with the highest
 * cumulative logprob are posted. Resolves false when `signal` aborted during a choice.
 */
async function runPrompt<P>(
  runner: ChoiceRunner<P>,
  prompt: P,
  echo: EchoPiece | null,
  p: number,
  { request, port, signal, tally }: RunContext,
): Promise<boolean> {
  const live = request.continuous_usage;
  const candidates = request.best_of > request.n ? request.best_of : request.n;
  const buffered = candidates > request.n;
  const finished: Array<{ pieces: ChoicePiece[]; end: EndPiece }> = [];
  for (let choice = 0; choice < candidates; choice++) {
    const index = p * request.n + choice;
    const pieces: ChoicePiece[] = [];
    for await (const piece of runChoice(runner, request, prompt, choice, echo, signal)) {
      if (signal.aborted) return false;
      if (piece.type === 'end') {
        if (choice === 0) {
          tally.prompt += piece.promptTokens;
          tally.cached += piece.cachedTokens;
        }
        tally.current = 0;
        finished.push({ pieces, end: piece });
        if (!buffered) {
          tally.completion += piece.completionTokens;
          postToSw(port, 'generation.choice-end', {
            index,
            finish_reason: piece.finishReason,
            matched_stop: piece.matchedStop,
            ...(live ? { counts: tally.snapshot() } : {}),
          });
        }
      } else if (buffered) {
        pieces.push(piece);
      } else {
        tally.current = piece.count;
        postToSw(port, 'generation.piece', {
          index,
          text: piece.text,
          tokens: piece.tokens,
          ...(live ? { counts: tally.snapshot() } : {}),
        });
      }
    }
  }
  if (buffered) postBest(port, finished, p * request.n, request.n, tally);
  return true;
}

/**
 * Renders a conversation with the model's template and tells the SW whether it opens
 * reasoning. The prompt is token ids where the backend tokenizes the template's markup apart
 * from the request's text (no user text becomes a control token), else the rendered text.
 */
async function renderFor(model: LoadedModel, chat: ChatPrompt, index: number, port: MessagePort): Promise<PromptInput> {
  const rendered = renderChatPrompt(model.chatTemplate, chat);
  const prompt = model.tokenizeSegments ? await model.tokenizeSegments(rendered.segments) : rendered.text;
  postToSw(port, 'generation.prompt', { index, opens_reasoning: rendered.opensReasoning });
  return prompt;
}

/** `best_of`: the `n` candidates with the highest cumulative logprob, best first. */
function postBest(
  port: MessagePort,
  finished: Array<{ pieces: ChoicePiece[]; end: EndPiece }>,
  first: number,
  n: number,
  tally: Tally,
): void {
  const best = [...finished].sort((a, b) => b.end.cumulativeLogprob - a.end.cumulativeLogprob).slice(0, n);
  for (const [offset, candidate] of best.entries()) {
    const index = first + offset;
    for (const piece of candidate.pieces) {
      if (piece.type === 'delta') postToSw(port, 'generation.piece', { index, text: piece.text, tokens: piece.tokens });
    }
    tally.completion += candidate.end.completionTokens;
    postToSw(port, 'generation.choice-end', {
      index,
      finish_reason: candidate.end.finishReason,
      matched_stop: candidate.end.matchedStop,
    });
  }
}
