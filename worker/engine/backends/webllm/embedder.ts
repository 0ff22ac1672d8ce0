/**
 * Embeddings on the `webllm` backend: WebLLM's `embeddings.create` on its embedding builds
 * (`model_type: ModelType.embedding`, e.g. `snowflake-arctic-embed-m-q0f32-MLC-b32`). WebLLM's
 * pipeline takes the first token's final hidden state (CLS pooling) and its tokenizer adds no
 * special tokens, so text is sent as `[CLS] text [SEP]`, as WebLLM's own example does (text
 * that already starts with `[CLS]` goes as it is); token ids go as given. Vectors come back
 * as WebLLM returns them, unnormalised (the SW scales them to unit length).
 */
import type { CreateEmbeddingResponse, EmbeddingCreateParams, ModelRecord, ModelType } from '@mlc-ai/web-llm';
import { InvalidRequestError } from '#core/domain/errors';
import type { EmbeddingResult } from '#core/domain/embedding';
import type { PromptInput } from '#core/domain/generation';
import { mapGenerateError } from './errors';

/** WebLLM's `ModelType.embedding` (its enum is a runtime value; this module imports only types). */
export const EMBEDDING_MODEL_TYPE: ModelType.embedding = 1;

/** The part of WebLLM's `MLCEngine` an embedding model uses (a fake implements it in unit tests). */
export interface WebLLMEmbeddingEngine {
  embeddings: { create(request: EmbeddingCreateParams): Promise<CreateEmbeddingResponse> };
  unload(): Promise<void>;
}

/** Whether WebLLM loads this record as an embedding model (its `EmbeddingPipeline`). */
export const isEmbeddingRecord = (record: ModelRecord): boolean => record.model_type === EMBEDDING_MODEL_TYPE;

/**
 * The most inputs one forward of the build takes: the catalogue id's `-b32`, else the model
 * library's `_batch32` (its compiled `max_batch_size`); null when neither names it.
 */
export function embeddingBatchSize(record: ModelRecord): number | null {
  const match = /-b(\d+)$/.exec(record.model_id) ?? /_batch(\d+)\b/.exec(record.model_lib);
  const size = match ? Number(match[1]) : 0;
  return size > 0 ? size : null;
}

/** WebLLM's input for one text: wrapped in the BERT specials its pipeline expects. */
export const withSpecialTokens = (text: string): string => (text.startsWith('[CLS]') ? text : `[CLS] ${text} [SEP]`);

/**
 * The inputs as WebLLM requests, in order: runs of one kind (its type takes `string[]` or
 * `number[][]`, not both), at most `batch` inputs each (null: no limit).
 */
export function embeddingChunks(inputs: PromptInput[], batch: number | null): Array<string[] | number[][]> {
  const chunks: Array<{ texts: string[] } | { ids: number[][] }> = [];
  for (const input of inputs) {
    const last = chunks.at(-1);
    const size = last ? ('texts' in last ? last.texts.length : last.ids.length) : 0;
    const full = batch !== null && size >= batch;
    if (typeof input === 'string') {
      if (last && 'texts' in last && !full) last.texts.push(withSpecialTokens(input));
      else chunks.push({ texts: [withSpecialTokens(input)] });
    } else if (last && 'ids' in last && !full) last.ids.push(input);
    else chunks.push({ ids: [input] });
  }
  return chunks.map((chunk) => ('texts' in chunk ? chunk.texts : chunk.ids));
}

/** One `embeddings.create` per chunk (an abort stops between them); vectors in input order, tokens summed. */
export async function webllmEmbed(
  engine: WebLLMEmbeddingEngine,
  model: string,
  inputs: PromptInput[],
  batch: number | null,
  signal: AbortSignal,
): Promise<EmbeddingResult> {
  const vectors: number[][] = [];
  let promptTokens = 0;
  for (const input of embeddingChunks(inputs, batch)) {
    if (signal.aborted) break;
    const response = await engine.embeddings.create({ input, model }).catch((error: unknown) => {
      throw mapEmbeddingError(error);
    });
    const data = [...response.data].sort((a, b) => a.index - b.index);
    if (data.length !== input.length)
      throw new Error(`WebLLM returned ${data.length} embeddings for ${input.length} inputs`);
    vectors.push(...data.map((entry) => entry.embedding));
    promptTokens += response.usage.prompt_tokens;
  }
  return { vectors, promptTokens, cachedTokens: 0 };
}

/** WebLLM's input errors as 400s naming `input`; GPU failures as 503s; anything else as it is. */
export function mapEmbeddingError(error: unknown): Error {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'EmbeddingExceedContextWindowSizeError')
    return new InvalidRequestError(
      `An input is longer than the model's context: ${message}`,
      'input',
      'context_length_exceeded',
    );
  if (name === 'EmbeddingInputEmptyError')
    return new InvalidRequestError("Invalid value for 'input': an input must not be empty.", 'input', 'empty_input');
  return mapGenerateError(error);
}
