/** The neutral engine protocol as the chat, responses and embeddings formatters read it (from core). */
import type { EngineToSw, MessageOf } from '#core/protocol/protocol';

export type { Candidate, FinishReason, GenerationRequest, TokenCounts, TokenLogprob } from '#core/domain/generation';

/** Engine -> SW events, in order, per request (the channel keeps its liveness answers to itself). */
export type GenerationEvent = Exclude<MessageOf<EngineToSw>, { type: 'generation.alive' }>;
export type GenerationPiece = Extract<GenerationEvent, { type: 'generation.piece' }>;
export type GenerationChoiceEnd = Extract<GenerationEvent, { type: 'generation.choice-end' }>;
export type GenerationDone = Extract<GenerationEvent, { type: 'generation.done' }>;
export type GenerationError = Extract<GenerationEvent, { type: 'generation.error' }>;
