/**
 * The one message protocol shared by the Service Worker, the page and the engine worker.
 * Each direction is a map from message type to payload; the tagged union is derived from it,
 * so handlers narrow on `type` and never cast.
 */
import type { WireError } from './errors';
import type { CompletionRequest, FinishReason, LegacyLogprobs, Usage } from './openai/types';
import type { ModelCard } from './model-card';

/** Turns a message map into its tagged union. */
export type MessageOf<M> = { [K in keyof M]: { type: K } & M[K] }[keyof M];

/** SW -> page (via `client.postMessage`, always with a reply port in the transfer list). */
export interface SwToPage {
  /**
   * Which models does this page's engine serve? Reply on the port with `engine.info`; with
   * `catalogue`, also the models it could load (`status: 'available'`).
   */
  'engine.query': { protocol: number; catalogue: boolean };
  /** Run a completion; the port then carries `EngineToSw` and `SwToEngine`. */
  'completion.start': { request: CompletionRequest };
}

/** Page -> SW (via `ServiceWorker.postMessage`). */
export interface PageToSw {
  /** Take control of the sending page now (after a hard reload it stays uncontrolled). */
  'client.claim': { protocol: number };
  /** The sending page runs an engine (a hint for choosing whom to ask). */
  'client.hello': { protocol: number };
  /** The sending page's engine stopped. */
  'client.goodbye': { protocol: number };
}

/** Page -> SW on the reply port of `engine.query`. */
export interface PageReply {
  'engine.info': { models: ModelCard[]; apiKey: string | null };
}

/** Engine worker -> SW on a completion's port. */
export interface EngineToSw {
  /** More text of choice `index` (with its tokens' logprobs when asked; running usage when asked). */
  'completion.delta': { index: number; text: string; logprobs: LegacyLogprobs | null; usage?: Usage };
  /** Choice `index` ended (exactly once per choice). */
  'completion.choice-end': { index: number; finish_reason: FinishReason; matched_stop: string | number | null; usage?: Usage };
  /** Every choice ended; the request's usage. */
  'completion.done': { usage: Usage };
  'completion.error': { error: WireError };
}

/** SW -> engine worker on a completion's port. */
export interface SwToEngine {
  'completion.cancel': { reason: string };
  /** The SW still reads this request (sent every KEEPALIVE_INTERVAL_MS while it runs). */
  'completion.keepalive': Record<string, never>;
}

/** Bumped whenever a message shape changes; the SW and the page must agree. */
export const PROTOCOL_VERSION = 2;

/** A type guard for one direction, from the list of its message types. */
export function messageGuard<M>(types: ReadonlyArray<keyof M & string>) {
  const known = new Set<string>(types);
  return (data: unknown): data is MessageOf<M> => {
    if (typeof data !== 'object' || data === null) return false;
    const type: unknown = Reflect.get(data, 'type');
    return typeof type === 'string' && known.has(type);
  };
}

export const isSwToPage = messageGuard<SwToPage>(['engine.query', 'completion.start']);
export const isPageToSw = messageGuard<PageToSw>(['client.claim', 'client.hello', 'client.goodbye']);
export const isPageReply = messageGuard<PageReply>(['engine.info']);
export const isEngineToSw = messageGuard<EngineToSw>(['completion.delta', 'completion.choice-end', 'completion.done', 'completion.error']);
export const isSwToEngine = messageGuard<SwToEngine>(['completion.cancel', 'completion.keepalive']);

/** Builds a typed message (keeps call sites short and checked). */
export function message<M, K extends keyof M>(type: K, payload: M[K]): { type: K } & M[K] {
  return { type, ...payload };
}
