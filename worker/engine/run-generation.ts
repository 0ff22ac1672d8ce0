/**
 * Runs one neutral generation request on a loaded model and posts its events to the SW:
 * pieces, one `choice-end` per choice, then exactly one `done` or `error`. The engine's shared
 * layer: batches, `n`, `best_of`, `echo` and token counts, the same for every backend.
 */
import { checkCapabilities } from '#core/domain/capabilities';
import { InvalidRequestError, toOpenAIError } from '#core/domain/errors';
import {
  hasMedia,
  isChatPrompt,
  type GenerationRequest,
  type PromptInput,
  type PromptWithMedia,
  type RequestPrompt,
  type TokenCounts,
} from '#core/domain/generation';
import type { ChatPrompt } from '#core/domain/chat-prompt';
import { budgetActive, effectiveBudget } from '#core/domain/reasoning-budget';
import { message, type EngineToSw } from '#core/protocol/protocol';
import type { ChoiceReasoning, ChoiceRunner, LoadedModel, MediaPrompt } from './backend';
import { renderChatSegments } from './chat/render-prompt';
import { reasoningStart, reasoningTags, thinkingTags } from './chat/reasoning-tags';
import { reasoningGrammar } from './chat/reasoning-grammar';
import { chatJsonGrammar, jsonFrame } from './chat/chat-json-grammar';
import { chatToolGrammar } from './chat/chat-tool-grammar';
import { toolCallFormat } from './chat/tool-call-format';
import type { ThinkingTags } from '#core/domain/thinking-tags';
import type { ToolCallFormat } from '#core/domain/tool-call-format';
import { promptText } from './chat/prompt-segments';
import { echoPrompt, type EchoPiece } from './echo-prompt';
import { choiceRequest, runChoice, type ChoicePiece } from './run-choice';
import type { SlotTasks } from './slot-tasks';
import { ReasoningEnd } from './reasoning-end';
import { engineReasoningBudget } from './engine-settings';

/** Posts one typed engine event to the SW. */
export const postToSw = <K extends keyof EngineToSw>(port: MessagePort, type: K, payload: EngineToSw[K]) =>
  port.postMessage(message<EngineToSw, K>(type, payload));

type EndPiece = Extract<ChoicePiece, { type: 'end' }>;

/** Running token counts of one request. */
class Tally {
  prompt = 0;
  completion = 0;
  cached = 0;
  /** Tokens of each choice in progress, by index (for continuous counts). */
  readonly current = new Map<number, number>();

  snapshot(): TokenCounts {
    let running = 0;
    for (const count of this.current.values()) running += count;
    return { prompt: this.prompt, completion: this.completion + running, cached: this.cached };
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
  reasoningEnd: ReasoningEnd = new ReasoningEnd(),
): Promise<TokenCounts> {
  const tally = new Tally();
  const context: RunContext = {
    request,
    port,
    signal,
    tally,
    reasoningEnd,
    contextLength: model.capabilities.context_length,
    slots: model.details?.slots ?? 1,
    tasks: model.slotTasks ?? null,
  };
  try {
    checkCapabilities(model.capabilities, request);
    for (const [p, requested] of request.prompts.entries()) {
      if (hasMedia(requested)) {
        // Read through the model's projector (issue 32): no echo, as llama-server has none for them.
        if (request.echo) throw new InvalidRequestError(ECHO_MEDIA, 'echo', 'unsupported_parameter');
        const { runner, prompt, opensReasoning, conversation } = renderWithMedia(model, requested);
        const rendered = fromRender(model, context, conversation, opensReasoning);
        if (!(await runPrompt(runner, prompt, { echo: null, ...rendered.extras }, p, rendered.context)))
          return tally.snapshot();
        continue;
      }
      if (isChatPrompt(requested) && model.conversations) {
        // The backend renders the conversation with its own template.
        if (request.echo) throw new InvalidRequestError(ECHO_CHAT, 'echo', 'unsupported_parameter');
        const { conversations } = model;
        const { opensReasoning } = conversations.prepare(choiceRequest(request, requested.chat, 0));
        if (
          !(await runPrompt(
            conversations,
            requested.chat,
            { echo: null, opensReasoning, opener: null, reasoning: null, toolFormat: null, thinking: null },
            p,
            context,
          ))
        )
          return tally.snapshot();
        continue;
      }
      const { prompt, opensReasoning, conversation } = await renderFor(model, requested);
      const echo = request.echo ? await echoPrompt(model, prompt, request.logprobs, signal, request.lora) : null;
      const rendered = fromRender(model, context, conversation, opensReasoning);
      if (!(await runPrompt(model, prompt, { echo, ...rendered.extras }, p, rendered.context))) return tally.snapshot();
    }
    postToSw(port, 'generation.done', { counts: tally.snapshot() });
  } catch (error) {
    if (!signal.aborted) postToSw(port, 'generation.error', { error: toOpenAIError(error).toWire() });
  }
  return tally.snapshot();
}

const ECHO_MEDIA = "'echo' is not supported for prompts with images or audio.";
const ECHO_CHAT = "'echo' is not supported for conversations on this model's backend (it renders them itself).";

/** What every prompt of one request shares. */
interface RunContext {
  request: GenerationRequest;
  port: MessagePort;
  signal: AbortSignal;
  tally: Tally;
  /** The model's context, in tokens (posted with a prompt's counts). */
  contextLength: number;
  /** The model's slots: how many of a prompt's choices run at once (their tokens decoded together). */
  slots: number;
  /** What its slots run, for `GET /slots` (backends with slots). */
  tasks: SlotTasks | null;
  /** The request's `reasoning_end` controls. */
  reasoningEnd: ReasoningEnd;
}

/**
 * What goes with a prompt: its echo, and for a conversation whether its rendering opens
 * reasoning (null for a text prompt). A conversation's `generation.prompt` is posted once the
 * backend took the prompt (so the SW answers 200 only then: a prompt over the context is a 400).
 */
interface PromptExtras {
  echo: EchoPiece | null;
  opensReasoning: boolean | null;
  /** Where the prompt the engine rendered opens reasoning, its text from that `<think>` on. */
  opener: string | null;
  /** A conversation's reasoning budget with its template's tags (the choices' `ended` added here). */
  reasoning: Omit<ChoiceReasoning, 'ended'> | null;
  /** How the model's template writes tool calls, where it writes them in a JSON format (tool-call-format.ts). */
  toolFormat: ToolCallFormat | null;
  /** The tags the model's template writes its reasoning between, where it writes any (reasoning-tags.ts). */
  thinking: ThinkingTags | null;
}

/**
 * Runs the choices of prompt `p` on `runner` (a model, or its `conversations`) and posts them:
 * `n` choices (index = p * n + choice), or `best_of` candidates of which the `n` with the highest
 * cumulative logprob are posted. On a model with slots, up to that many choices run at once (each
 * on a slot of its own, their tokens decoded in one batch), their pieces posted as they come;
 * else one after another. Resolves false when `signal` aborted during a choice.
 */
async function runPrompt<P>(
  runner: ChoiceRunner<P>,
  prompt: P,
  { echo, opensReasoning, opener, reasoning, toolFormat, thinking }: PromptExtras,
  p: number,
  { request, port, signal, tally, contextLength, slots, tasks, reasoningEnd }: RunContext,
): Promise<boolean> {
  const live = request.continuous_usage;
  const candidates = request.best_of > request.n ? request.best_of : request.n;
  const buffered = candidates > request.n;
  const finished: Array<{ choice: number; pieces: ChoicePiece[]; end: EndPiece }> = [];
  let announced = false;
  /** Posts (or holds, for best_of) one piece of choice `choice`. */
  const take = (choice: number, piece: ChoicePiece, pieces: ChoicePiece[]): void => {
    const index = p * request.n + choice;
    if (piece.type === 'accepted') {
      // A conversation's prompt says whether it opened reasoning; any prompt, its size where known.
      // Posted once, for the first choice the backend took (the choices share the prompt).
      if (announced || (opensReasoning === null && !piece.prompt)) return;
      announced = true;
      postToSw(port, 'generation.prompt', {
        index: p,
        opens_reasoning: opensReasoning ?? false,
        ...(opener === null ? {} : { reasoning_opener: opener }),
        ...(toolFormat === null ? {} : { tool_format: toolFormat }),
        ...(thinking === null ? {} : { thinking_tags: thinking }),
        ...(piece.prompt
          ? {
              counts: { prompt: piece.prompt.tokens, completion: 0, cached: piece.prompt.cached },
              context_length: contextLength,
              ...(piece.prompt.text === undefined ? {} : { text: piece.prompt.text }),
              ...(piece.prompt.slot === undefined ? {} : { slot: piece.prompt.slot }),
            }
          : {}),
      });
    } else if (piece.type === 'end') {
      if (choice === 0) {
        tally.prompt += piece.promptTokens;
        tally.cached += piece.cachedTokens;
      }
      tally.current.delete(index);
      finished.push({ choice, pieces, end: piece });
      if (buffered) return;
      tally.completion += piece.completionTokens;
      postToSw(port, 'generation.choice-end', {
        index,
        finish_reason: piece.finishReason,
        matched_stop: piece.matchedStop,
        ...(live ? { counts: tally.snapshot() } : {}),
        ...(piece.draft ? { draft: piece.draft } : {}),
        ...(piece.tail ? { tail: piece.tail } : {}),
      });
    } else if (buffered) {
      pieces.push(piece);
    } else {
      tally.current.set(index, piece.count);
      postToSw(port, 'generation.piece', {
        index,
        text: piece.text,
        tokens: piece.tokens,
        ...(live ? { counts: tally.snapshot() } : {}),
      });
    }
  };
  // Each runner takes the next choice until none is left; the first failure stops the others.
  const inner = new AbortController();
  const stop = () => inner.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  let next = 0;
  const work = async (): Promise<void> => {
    while (next < candidates && !inner.signal.aborted) {
      const choice = next++;
      const pieces: ChoicePiece[] = [];
      const budget = reasoning ? { ...reasoning, ended: reasoningEnd.watch() } : null;
      for await (const piece of runChoice(runner, request, prompt, choice, echo, inner.signal, tasks, budget)) {
        if (inner.signal.aborted) return;
        take(choice, piece, pieces);
      }
    }
  };
  const failures: unknown[] = [];
  try {
    // All of them settled: no choice of this request is still in the engine when it ends.
    await Promise.allSettled(
      Array.from({ length: Math.max(1, Math.min(slots, candidates)) }, () =>
        work().catch((error: unknown) => {
          failures.push(error);
          inner.abort(error);
        }),
      ),
    );
  } finally {
    signal.removeEventListener('abort', stop);
  }
  // The first failure, not the aborts it caused in the other choices.
  if (failures.length > 0) throw failures[0];
  if (signal.aborted) return false;
  if (buffered)
    postBest(
      port,
      finished.sort((a, b) => a.choice - b.choice),
      p * request.n,
      request.n,
      tally,
    );
  return true;
}

/**
 * A prompt as the backend takes it: a conversation rendered with the model's template (does it
 * open reasoning?). Where the backend tokenizes the template's markup apart from the request's
 * text (no user text becomes a control token), the conversation's prompt is those token ids.
 */
async function renderFor(
  model: LoadedModel,
  requested: RequestPrompt,
): Promise<{ prompt: PromptInput; opensReasoning: boolean | null; conversation: RenderedConversation | null }> {
  if (typeof requested === 'string' || Array.isArray(requested))
    return { prompt: requested, opensReasoning: null, conversation: null };
  if (!isChatPrompt(requested)) throw new Error('A prompt with media is rendered by renderWithMedia.');
  const rendered = renderChatSegments(model.chatTemplate, requested.chat);
  const text = promptText(rendered.segments);
  const prompt = model.tokenizeSegments ? await model.tokenizeSegments(rendered.segments) : text;
  return { prompt, opensReasoning: rendered.opensReasoning, conversation: { chat: requested.chat, text } };
}

/** A conversation and its prompt text, as the template rendered it (for its reasoning tags). */
interface RenderedConversation {
  chat: ChatPrompt;
  text: string;
}

/**
 * A prompt with media as the model's projector takes it: a conversation rendered to text (which
 * mtmd tokenizes whole, control-token text included, as llama-server does), its request's
 * marker replaced by the model's. A model without a projector never gets here: its card has no
 * `modalities`, so `checkCapabilities` refused the request in llama-server's words.
 */
function renderWithMedia(
  model: LoadedModel,
  requested: PromptWithMedia,
): {
  runner: ChoiceRunner<MediaPrompt>;
  prompt: MediaPrompt;
  opensReasoning: boolean | null;
  conversation: RenderedConversation | null;
} {
  const { media: runner, mediaMarker } = model;
  const { marker, items } = requested.media;
  if (!runner || mediaMarker === undefined)
    throw new Error(`'${model.details?.mmproj ?? 'the model'}' says it reads media but has no projector runner.`);
  const withMarker = (text: string) => (marker === null ? text : text.split(marker).join(mediaMarker));
  if (!('chat' in requested))
    return { runner, prompt: { text: withMarker(requested.text), items }, opensReasoning: null, conversation: null };
  const rendered = renderChatSegments(model.chatTemplate, requested.chat);
  const text = promptText(rendered.segments);
  return {
    runner,
    prompt: { text: withMarker(text), items },
    opensReasoning: rendered.opensReasoning,
    conversation: { chat: requested.chat, text },
  };
}

/**
 * A conversation's reasoning budget as the sampler takes it: the request's over the engine's
 * default (`startInpage({ reasoningBudget })`), with the template's reasoning tags (none where the
 * template has none, as llama-server sets none there). A lazy grammar (strict tools with
 * tool_choice `auto`) takes the tags even without a budget, as llama-server hands them with every
 * request: its sampler then keeps the grammar out of the reasoning, so a `<tool_call>` the model
 * writes while it reasons starts no call.
 */
function reasoningFor(
  model: LoadedModel,
  request: GenerationRequest,
  conversation: RenderedConversation | null,
): Omit<ChoiceReasoning, 'ended'> | null {
  const budget = effectiveBudget(request.reasoning_budget, engineReasoningBudget());
  const lazyGrammar = request.grammar?.trigger !== undefined;
  if (!conversation || !(budgetActive(budget) || lazyGrammar)) return null;
  const tags = reasoningTags(model.chatTemplate, conversation.chat, conversation.text);
  return tags ? { ...tags, budget: budget.tokens, message: budget.message, control: budget.control } : null;
}

/**
 * What a prompt takes from the engine's render of it (none for a text prompt): the reasoning
 * budget, the prompt's text from the `<think>` it opens (`reasoning_opener`), and the request's
 * context with its grammar as a chat answer's (`chatJsonGrammar`), leaving room for the reasoning
 * (`reasoningGrammar`).
 */
function fromRender(
  model: LoadedModel,
  context: RunContext,
  conversation: RenderedConversation | null,
  opensReasoning: boolean | null,
): { extras: Omit<PromptExtras, 'echo'>; context: RunContext } {
  const { request } = context;
  const template = model.chatTemplate;
  const at = conversation && opensReasoning === true ? conversation.text.lastIndexOf(reasoningStart(template)) : -1;
  const extras = {
    opensReasoning,
    // Up to a continued reasoning's own text, which the SW reads as the answer's start (its prefill).
    opener:
      conversation && at >= 0
        ? conversation.text.slice(at, conversation.text.length - continued(conversation.chat))
        : null,
    reasoning: reasoningFor(model, request, conversation),
    toolFormat: conversation && template ? toolCallFormat(template.source, template) : null,
    thinking: conversation ? thinkingTags(template) : null,
  };
  if (!conversation || !request.grammar) return { extras, context };
  const inFormat = chatToolGrammar(request.grammar, extras.toolFormat);
  const grammar =
    inFormat &&
    reasoningGrammar(
      model.chatTemplate,
      chatJsonGrammar(inFormat, template === null ? 'optional' : jsonFrame(template.source)),
      {
        text: conversation.text,
        opensReasoning: opensReasoning === true,
      },
    );
  return { extras, context: grammar === request.grammar ? context : { ...context, request: { ...request, grammar } } };
}

/** The length of the reasoning a prompt continues (a prefill's), which ends its text. */
function continued(chat: ChatPrompt): number {
  const last = chat.messages.at(-1);
  return chat.continue_final_message === 'reasoning' && last?.role === 'assistant'
    ? (last.reasoning_content ?? '').length
    : 0;
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
      ...(candidate.end.draft ? { draft: candidate.end.draft } : {}),
      ...(candidate.end.tail ? { tail: candidate.end.tail } : {}),
    });
  }
}
