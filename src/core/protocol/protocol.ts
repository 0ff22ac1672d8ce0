/**
 * The one message protocol shared by the Service Worker, the page and the engine worker.
 * Each direction is a map from message type to payload; the tagged union is derived from it,
 * so handlers narrow on `type` and never cast. The engine's messages are neutral
 * (`generation.*`): no endpoint's shape crosses this boundary. Every request kind travels
 * the same way: one `job` message (`JobRequests` says what each kind asks), with its own
 * MessageChannel port that then carries that kind's events (`JobEvents`).
 */
import type { ThinkingTags } from '../domain/thinking-tags';
import type { DraftCounts } from '../domain/speculative';
import type { BuildStamp } from './build-stamp';
import type { EmbeddingRequest } from '../domain/embedding';
import type { RerankRequest } from '../domain/rerank';
import type { LoraAdapterInfo, LoraAdaptersRequest } from '../domain/lora';
import type { WireError } from '../domain/errors';
import type { FinishReason, GenerationRequest, TokenCounts, TokenLogprob } from '../domain/generation';
import type { ModelCard } from '../domain/model-card';
import type { ModelSpec } from '../domain/model-spec';
import type { ReadyRequest, ReadyResult } from '../domain/ready';
import type { ToolCallFormat } from '../domain/tool-call-format';
import type { RouteInfo } from '../route-table/route-info';
import type { ModelSlots, SlotActionRequest, SlotActionResult } from '../domain/slots';
import type {
  ApplyTemplateRequest,
  DetokenizeRequest,
  PropsRequest,
  PropsResult,
  TokenizeRequest,
  TokenizeResult,
} from '../domain/tokenize';

/** Turns a message map into its tagged union. */
export type MessageOf<M> = { [K in keyof M & string]: { type: K } & M[K] }[keyof M & string];

/** What each kind of job asks of the engine: its neutral request. */
export interface JobRequests {
  generation: GenerationRequest;
  embedding: EmbeddingRequest;
  /** llama-server's `/rerank`: a reranker's score for each document against a query. */
  rerank: RerankRequest;
  tokenize: TokenizeRequest;
  detokenize: DetokenizeRequest;
  'apply-template': ApplyTemplateRequest;
  props: PropsRequest;
  /** Readiness: is the model loaded here? No forward pass (`domain/ready.ts`). */
  ready: ReadyRequest;
  /** llama-server's slot actions: the model's context saved to, or restored from, a named file; or erased. */
  slot: SlotActionRequest;
  /** llama-server's `/lora-adapters`: the model's LoRA adapters, and setting their scales. */
  lora: LoraAdaptersRequest;
}

export type JobKind = keyof JobRequests;

/** One request for the engine, tagged with its kind (a union over the kinds by default). */
export type Job<K extends JobKind = JobKind> = { [P in K]: { kind: P; request: JobRequests[P] } }[K];

/**
 * SW -> page (via `client.postMessage`, always with a port in the transfer list), or SW ->
 * that page's engine worker on its job inbox: a port the page handed to both (`client.hello`),
 * so that queries and jobs reach the engine without a hop through the page's main thread.
 */
export interface SwToPage {
  /**
   * Which models does this page's engine serve? Reply on the port with `engine.info`; with
   * `catalogue`, also the models it could load (`status: 'available'`); with `slots`, their slots
   * (`slots`: `GET /slots`, `/metrics`).
   */
  'engine.query': { catalogue: boolean; slots?: boolean };
  /** Run `job`; the port then carries `JobEvents[kind]` one way and `SwToEngine` the other. */
  job: { job: Job };
}

/**
 * Engine worker -> SW on its job inbox, unasked: the `engine.info` it would answer, each time
 * its models change (a load begins, ends or fails; the engine stops), so the SW can route a
 * page's own requests to its engine without asking first.
 */
export type EngineToSwInbox = Pick<Reply, 'engine.info'>;

/** What the page says of itself to its engine worker, so that the worker can answer `engine.query` for it. */
export interface InboxInfo {
  apiKey: string | null;
  standby: string[];
}

/** Page -> SW (via `ServiceWorker.postMessage`; `sw.version.query` with a reply port). */
export interface PageToSw {
  /** Take control of the sending page now (after a hard reload it stays uncontrolled). */
  'client.claim': Record<string, never>;
  /**
   * The sending page runs an engine (a hint for choosing whom to ask). A port in the transfer
   * list is its engine worker's job inbox (it takes `SwToPage` as the page would).
   */
  'client.hello': Record<string, never>;
  /** The sending page's engine stopped. */
  'client.goodbye': Record<string, never>;
  /**
   * The sending page is cross-origin isolated, so its engine may load the pthreads build: the SW
   * stores that build for offline use, if it has not. (Firefox's SW is never isolated itself.)
   */
  'client.isolated': Record<string, never>;
  /**
   * The sending page's engine worker died (a trap, out of memory, closed or killed): the jobs
   * it held end now with a 503 `engine_crashed` saying `reason`; the page starts a new engine
   * (its `client.hello` follows) or gives the model up to another tab.
   */
  'client.crashed': { reason: string };
  /** Which build is this SW? Reply on the port with `sw.version` (stale-SW check). */
  'sw.version.query': Record<string, never>;
  /** The answer to `sw.stay`: the message event itself keeps a Firefox SW alive 30 s more. */
  'client.stay': Record<string, never>;
  /** The sending page's route table (null: device-only); reply on the port with `routes.ack`. */
  'routes.set': RouteInfo;
}

/**
 * SW -> page main thread (`client.postMessage`), outside the engine's `SwToPage`.
 */
export interface SwToPageMain {
  /** A restarted SW asks the requesting page for its route table (reply on the port: `routes.set`). */
  'routes.query': Record<string, never>;
  /** The SW is writing a response: answer `client.stay`, an event that renews its life (keep-awake.ts). */
  'sw.stay': Record<string, never>;
}

/**
 * Engine worker -> its page, on the worker's own port (beside comlink's calls, which ignore it):
 * the engine crashed (`reason`) and the worker is closing; the page starts a new one, on the CPU
 * where the crashed engine ran its model on the GPU (`onGpu`: its device lost, say).
 */
export interface EngineToPage {
  'engine.crashed': { reason: string; onGpu: boolean };
  /**
   * The worker starts an engine build (its wasm, and with pthreads its thread workers) and then
   * says `engine.started`: meanwhile the page expects its pings answered even though a load runs,
   * since nothing in a start blocks the worker for long (watch-engine.ts).
   */
  'engine.starting': Record<string, never>;
  'engine.started': Record<string, never>;
  /**
   * `POST /lora-adapters` set `model`'s LoRA scales (one per adapter, in its spec's order): the
   * page keeps them in the model's spec, so an engine restarted after a crash loads them again.
   */
  'model.lora': { model: string; scales: number[] };
}

/**
 * Tab -> the origin's other tabs, on the BroadcastChannel `inpage-llm:tabs`
 * (page/engine-state-channel.ts): what a tab that takes an engine over needs from the one that ran it.
 */
export interface PageToPage {
  /**
   * The leading tab of `election` (its lock's model id) serves `models` (in load order): the one
   * that takes over loads them too.
   */
  'tab.models': { election: string; models: ModelSpec[] };
  /**
   * `POST /lora-adapters` set `model`'s LoRA scales in the leading tab's engine: one per adapter,
   * the adapters named in their spec's order (a tab whose spec lists others ignores them).
   */
  'tab.lora': { model: string; adapters: string[]; scales: number[] };
  /** A tab that begins to follow in `election` asks: its leading tab answers `tab.models` and its `tab.lora`s. */
  'tab.query': { election: string };
}

/** Each model's slots as its engine tells them, by model id. */
export type SlotsByModel = Record<string, ModelSlots>;

/** Replies on the port of a page <-> SW question. */
export interface Reply {
  /**
   * The models this page's engine serves; `standby`: the models this page runs or will run an
   * engine for (a leader whose engine may still be starting, or a follower in line for their
   * lock), so the SW knows a handover is coming and holds requests for it instead of failing them.
   */
  'engine.info': { models: ModelCard[]; apiKey: string | null; standby: string[]; slots?: SlotsByModel };
  'sw.version': BuildStamp;
  /** The route table was taken (`error`: why not; the page validated it, so only a bug). */
  'routes.ack': { error: string | null };
  'routes.set': RouteInfo;
}

/** Engine worker -> SW on a generation's port. */
export interface EngineToSw {
  /**
   * The engine's backend took conversation prompt `index` (it fits the context: the SW may answer
   * 200 now); `opens_reasoning`: it ends inside `<think>` (the output starts as reasoning).
   */
  'generation.prompt': {
    index: number;
    opens_reasoning: boolean;
    /** Where it opens reasoning, its text from that `<think>` on (`<think>\n`), where the engine rendered it. */
    reasoning_opener?: string;
    /** How the model's template writes tool calls, where the engine rendered it and found them (Hermes's otherwise). */
    tool_format?: ToolCallFormat;
    /** The tags the model's template writes its reasoning between, where the engine rendered it and found them (`<think>`'s otherwise). */
    thinking_tags?: ThinkingTags;
    /** The prompt's token counts, where the backend knows them on taking it (Anthropic's `message_start` reports them). */
    counts?: TokenCounts;
    /** The prompt as the backend laid it out, control tokens as text, where the request asked (`/infill`'s `prompt`). */
    text?: string;
    /**
     * The model's context (tokens), with `counts`: prompt + completion reaching it means the
     * context's end stopped the choice, not `max_tokens` (`/infill`'s `truncated`).
     */
    context_length?: number;
    /** The model's slot its first choice runs on, where the backend has slots (llama-server's `id_slot`). */
    slot?: number;
  };
  /** More text of choice `index`, with its tokens when logprobs (or stops) were asked; running counts when asked. */
  'generation.piece': { index: number; text: string; tokens: TokenLogprob[] | null; counts?: TokenCounts };
  /** Choice `index` ended (exactly once per choice). */
  'generation.choice-end': {
    index: number;
    finish_reason: FinishReason;
    matched_stop: string | number | null;
    counts?: TokenCounts;
    /** Speculative decoding's counts, where it ran (llama-server's `timings.draft_n`, `draft_n_accepted`). */
    draft?: DraftCounts;
    /**
     * Text of the tokens that ended the generation inside a character, the open character last as
     * U+FFFD. Unstreamed answers only (the SW's streams leave it out, as llama-server's do):
     * `/completion`, `/infill` and `/v1/completions` end their text with it, the chat dialects
     * with the text before the open character (llama-server's chat parser drops that).
     */
    tail?: string;
  };
  /** Every choice ended; the request's token counts. */
  'generation.done': { counts: TokenCounts };
  'generation.error': { error: WireError };
  /**
   * The engine still holds this request (queued or running): its answer to each
   * `generation.keepalive`. With `busy_ms`, sent before a call that blocks the engine's thread
   * (a prompt step, a decode step on a large model): no answer can come for up to that long.
   */
  'generation.alive': { busy_ms?: number };
}

/** Engine worker -> SW on an embedding job's port: one result or one error, and `generation.alive` answers. */
export interface EngineToSwEmbedding {
  /** One vector per input, in order; the inputs' token count, and those kept from the input before. */
  'embedding.result': { vectors: number[][]; prompt_tokens: number; cached_tokens: number };
  'generation.error': { error: WireError };
}

/** Engine worker -> SW on a rerank job's port: one result or one error. */
export interface EngineToSwRerank {
  /** One score per document, in order; the pairs' tokens, and those kept from the pair before. */
  'rerank.result': { scores: number[]; prompt_tokens: number; cached_tokens: number };
  'generation.error': { error: WireError };
}

/** Engine worker -> SW on a tokenizer job's port: one result or one error. */
export interface EngineToSwTokens {
  'tokenize.result': TokenizeResult;
  'detokenize.result': { content: string };
  'apply-template.result': { prompt: string };
  'props.result': PropsResult;
  'slot.result': SlotActionResult;
  'lora.result': { adapters: LoraAdapterInfo[] };
  'generation.error': { error: WireError };
}

/** Engine worker -> SW on a readiness job's port: the loaded model's id, or one error. */
export interface EngineToSwReady {
  'ready.result': ReadyResult;
  'generation.error': { error: WireError };
}

/** What the engine posts on a job's port, by kind (every kind also answers keepalives with `generation.alive`). */
export interface JobEvents {
  generation: EngineToSw;
  embedding: EngineToSwEmbedding & Pick<EngineToSw, 'generation.alive'>;
  rerank: EngineToSwRerank & Pick<EngineToSw, 'generation.alive'>;
  tokenize: Pick<EngineToSwTokens, 'tokenize.result' | 'generation.error'> & Pick<EngineToSw, 'generation.alive'>;
  detokenize: Pick<EngineToSwTokens, 'detokenize.result' | 'generation.error'> & Pick<EngineToSw, 'generation.alive'>;
  'apply-template': Pick<EngineToSwTokens, 'apply-template.result' | 'generation.error'> &
    Pick<EngineToSw, 'generation.alive'>;
  props: Pick<EngineToSwTokens, 'props.result' | 'generation.error'> & Pick<EngineToSw, 'generation.alive'>;
  ready: EngineToSwReady & Pick<EngineToSw, 'generation.alive'>;
  slot: Pick<EngineToSwTokens, 'slot.result' | 'generation.error'> & Pick<EngineToSw, 'generation.alive'>;
  lora: Pick<EngineToSwTokens, 'lora.result' | 'generation.error'> & Pick<EngineToSw, 'generation.alive'>;
}

/** SW -> engine worker on every job's port, whatever its kind. */
export interface SwToEngine {
  'generation.cancel': { reason: string };
  /** llama-server's `/v1/chat/completions/control`: end the running choices' reasoning now (their next token). */
  'generation.control': { action: 'reasoning_end' };
  /** The SW still reads this request (sent every KEEPALIVE_INTERVAL_MS while it runs); the engine answers `generation.alive`. */
  'generation.keepalive': Record<string, never>;
}

/** A type guard for one direction, from the list of its message types. */
export function messageGuard<M>(types: ReadonlyArray<keyof M & string>) {
  const known = new Set<string>(types);
  return (data: unknown): data is MessageOf<M> => {
    if (typeof data !== 'object' || data === null) return false;
    const type: unknown = Reflect.get(data, 'type');
    return typeof type === 'string' && known.has(type);
  };
}

/** A guard for one message type of a map. */
export function typeGuard<M, K extends keyof M & string>(type: K) {
  const guard = messageGuard<Pick<M, K>>([type]);
  return (data: unknown): data is { type: K } & M[K] => guard(data);
}

export const isSwToPage = messageGuard<SwToPage>(['engine.query', 'job']);
export const isSwToPageMain = messageGuard<SwToPageMain>(['routes.query', 'sw.stay']);
export const isPageToSw = messageGuard<PageToSw>([
  'client.claim',
  'client.hello',
  'client.goodbye',
  'client.isolated',
  'client.crashed',
  'sw.version.query',
  'client.stay',
  'routes.set',
]);
export const isEngineToPage = messageGuard<EngineToPage>([
  'engine.crashed',
  'engine.starting',
  'engine.started',
  'model.lora',
]);
export const isPageToPage = messageGuard<PageToPage>(['tab.models', 'tab.lora', 'tab.query']);
export const isEngineToSw = messageGuard<EngineToSw>([
  'generation.prompt',
  'generation.piece',
  'generation.choice-end',
  'generation.done',
  'generation.error',
  'generation.alive',
]);
export const isEngineToSwEmbedding = messageGuard<EngineToSwEmbedding>(['embedding.result', 'generation.error']);
/** The guard for a job's port, by kind. */
export const isJobEvent: { [K in JobKind]: (data: unknown) => data is MessageOf<JobEvents[K]> } = {
  generation: isEngineToSw,
  embedding: messageGuard<JobEvents['embedding']>(['embedding.result', 'generation.error', 'generation.alive']),
  rerank: messageGuard<JobEvents['rerank']>(['rerank.result', 'generation.error', 'generation.alive']),
  tokenize: messageGuard<JobEvents['tokenize']>(['tokenize.result', 'generation.error', 'generation.alive']),
  detokenize: messageGuard<JobEvents['detokenize']>(['detokenize.result', 'generation.error', 'generation.alive']),
  'apply-template': messageGuard<JobEvents['apply-template']>([
    'apply-template.result',
    'generation.error',
    'generation.alive',
  ]),
  props: messageGuard<JobEvents['props']>(['props.result', 'generation.error', 'generation.alive']),
  ready: messageGuard<JobEvents['ready']>(['ready.result', 'generation.error', 'generation.alive']),
  slot: messageGuard<JobEvents['slot']>(['slot.result', 'generation.error', 'generation.alive']),
  lora: messageGuard<JobEvents['lora']>(['lora.result', 'generation.error', 'generation.alive']),
};
export const isSwToEngine = messageGuard<SwToEngine>([
  'generation.cancel',
  'generation.control',
  'generation.keepalive',
]);

/** Builds a typed message (keeps call sites short and checked). */
export function message<M, K extends keyof M>(type: K, payload: M[K]): { type: K } & M[K] {
  return { type, ...payload };
}
