import type { RawCompletionChunk, Wllama } from '@wllama/wllama';
import { AsyncQueue } from '../../../../src/core/async-queue';
import { InvalidRequestError } from '../../../../src/core/errors';
import { GREEDY, unsupportedOn } from '../../../../src/core/parameters';
import type { ModelCapabilities } from '../../../../src/core/capabilities';
import type { PromptInput } from '../../../../src/core/generation';
import type { ChatTemplate } from '../../../../src/gguf/chat-template';
import type { Vocabulary } from '../../../../src/gguf/vocabulary';
import type { ChoiceRequest, GenerationEvent, LoadedModel, PromptToken } from '../../backend';
import type { EmbeddingResult } from '../../../../src/core/embedding';
import { chunkEvents } from './chunk';
import type { LlamaCppEmbedder } from './embedder';
import { startCompletion, toServerParams } from './params';
import { mapServerError } from './map-server-error';

const strict = new TextDecoder('utf-8', { fatal: true });

/** A model loaded in wllama (llama.cpp's server core compiled to wasm). */
export class LlamaCppModel implements LoadedModel {
  readonly capabilities: ModelCapabilities;

  constructor(
    private readonly wllama: Wllama,
    private readonly vocab: Vocabulary,
    contextLength: number,
    readonly chatTemplate: ChatTemplate | null,
    private readonly embedder: LlamaCppEmbedder,
  ) {
    // wllama takes text prompts only: token ids convert exactly just for byte-level vocabularies
    // (and so does prompt scoring, which needs the prompt's tokens).
    const unsupported = [
      ...unsupportedOn('llamacpp'),
      ...(vocab.byteLevel ? [] : ['token_ids', 'prompt_logprobs']),
      ...(vocab.fim ? [] : ['suffix']),
      ...(chatTemplate ? [] : ['chat']),
    ];
    this.capabilities = {
      unsupported,
      context_length: contextLength,
      vocab_size: vocab.size,
      max_token_bytes: vocab.maxTokenBytes,
    };
  }

  async *generate(request: ChoiceRequest, signal: AbortSignal): AsyncIterable<GenerationEvent> {
    const text = await this.promptText(request.prompt);
    const prompt = request.suffix === null ? text : this.fimPrompt(text, request.suffix);
    if (request.min_tokens === 0 || request.ignore_eos) {
      yield* this.run(request, prompt, signal);
      return;
    }
    // min_tokens: EOS is banned (ignore_eos) for the first min_tokens tokens, then the
    // generation continues from there (the prefix cache makes the second part cheap).
    let first = '';
    let promptTokens = 0;
    let cachedTokens = 0;
    let completion = 0;
    for await (const event of this.run(
      { ...request, ignore_eos: true, max_tokens: request.min_tokens },
      prompt,
      signal,
    )) {
      if (event.type === 'end') {
        ({ promptTokens, cachedTokens } = event);
        completion = event.completionTokens;
        continue;
      }
      if (event.type === 'text') first += event.text;
      yield event;
    }
    if (signal.aborted) return;
    const rest = request.max_tokens === null ? null : request.max_tokens - completion;
    if (rest === 0) {
      yield { type: 'end', finishReason: 'length', promptTokens, completionTokens: completion, cachedTokens };
      return;
    }
    for await (const event of this.run({ ...request, min_tokens: 0, max_tokens: rest }, prompt + first, signal)) {
      if (event.type === 'prompt') continue;
      if (event.type === 'end') {
        yield { ...event, promptTokens, cachedTokens, completionTokens: completion + event.completionTokens };
      } else if (event.generated !== undefined) yield { ...event, generated: completion + event.generated };
      else yield event;
    }
  }

  async promptText(prompt: PromptInput): Promise<string> {
    if (typeof prompt === 'string') return prompt;
    try {
      return strict.decode(new Uint8Array(prompt.flatMap((id) => this.vocab.bytes(id))));
    } catch {
      throw new InvalidRequestError(
        'These prompt token ids do not form valid UTF-8 text, which this backend needs.',
        'prompt',
        'invalid_token_id',
      );
    }
  }

  async countPromptTokens(prompt: PromptInput, signal: AbortSignal): Promise<number> {
    if (typeof prompt !== 'string') return prompt.length;
    if (this.vocab.byteLevel) return new TextEncoder().encode(prompt).length;
    for await (const event of this.run(scoring(0, {}), prompt, signal))
      if (event.type === 'end') return event.promptTokens;
    return 0;
  }

  async scorePrompt(prompt: PromptInput, top: number, signal: AbortSignal): Promise<PromptToken[]> {
    const ids = typeof prompt === 'string' ? this.byteTokens(prompt) : prompt;
    const tokens: PromptToken[] = [];
    const bytes: number[] = [];
    for (const [i, id] of ids.entries()) {
      const own = { id, text: this.vocab.text(id), bytes: this.vocab.bytes(id) };
      if (i === 0) tokens.push({ ...own, logprob: null, top: null });
      else tokens.push({ ...own, ...(await this.scoreNext(this.prefixText(bytes), id, top, signal)) });
      bytes.push(...own.bytes);
    }
    return tokens;
  }

  /** Pooled vectors from the model's second, embeddings-only instance (started on first use). */
  embed(inputs: PromptInput[], signal: AbortSignal): Promise<EmbeddingResult> {
    return this.embedder.embed(inputs, signal);
  }

  async unload(): Promise<void> {
    await Promise.all([this.wllama.exit(), this.embedder.unload()]);
  }

  /**
   * Fill-in-the-middle in prefix-suffix-middle order, spelled with the model's FIM token texts
   * (llama-server parses special tokens in a text prompt, as its /infill does with ids).
   */
  private fimPrompt(prefix: string, suffix: string): string {
    const fim = this.vocab.fim;
    if (!fim)
      throw new InvalidRequestError(
        "'suffix' (fill-in-the-middle) is not supported by this model.",
        'suffix',
        'unsupported_parameter',
      );
    return `${this.vocab.text(fim.pre)}${prefix}${this.vocab.text(fim.suf)}${suffix}${this.vocab.text(fim.mid)}`;
  }

  /** The logprob of `id` right after `prefix`, forced with a logit bias (llama-server reports pre-bias probabilities). */
  private async scoreNext(prefix: string, id: number, top: number, signal: AbortSignal) {
    for await (const event of this.run(scoring(top, { [id]: 100 }), prefix, signal)) {
      const token = event.type === 'text' ? event.tokens?.[0] : undefined;
      if (token) return { logprob: token.logprob, top: token.top.slice(0, top) };
    }
    throw new InvalidRequestError('The prompt could not be scored.', 'echo');
  }

  private byteTokens(prompt: string): number[] {
    if (!this.vocab.byteLevel) {
      throw new InvalidRequestError(
        "'echo' with 'logprobs' needs a token-id prompt on this backend for this model.",
        'echo',
        'unsupported_parameter',
      );
    }
    return Array.from(new TextEncoder().encode(prompt));
  }

  private prefixText(bytes: number[]): string {
    try {
      return strict.decode(new Uint8Array(bytes));
    } catch {
      throw new InvalidRequestError(
        "'echo' with 'logprobs' cannot score a prompt token that splits a UTF-8 character on this backend.",
        'echo',
        'unsupported_parameter',
      );
    }
  }

  /** One llama-server completion as engine events. Consumed through wllama's callback form, so an abort never leaves an unhandled rejection. */
  private async *run(request: ChoiceRequest, prompt: string, signal: AbortSignal): AsyncIterable<GenerationEvent> {
    const chunks = new AsyncQueue<RawCompletionChunk>();
    const wantTokens = request.token_info !== null;
    startCompletion(this.wllama, toServerParams(request, prompt, signal), (chunk) => chunks.push(chunk)).then(
      () => chunks.end(),
      (error: unknown) => chunks.fail(error),
    );
    let ended = false;
    try {
      for await (const chunk of chunks) {
        for (const event of chunkEvents(chunk, wantTokens)) {
          if (event.type === 'prompt' && event.promptTokens === 0) continue;
          ended ||= event.type === 'end';
          yield event;
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      throw mapServerError(error);
    }
    if (!ended && !signal.aborted)
      throw mapServerError(new Error('llama-server ended the stream without a finish reason'));
  }
}

/** A greedy one-token request with every sampler off (prompt scoring and counting). */
function scoring(top: number, bias: Record<string, number>): ChoiceRequest {
  return {
    ...GREEDY,
    prompt: '',
    max_tokens: 1,
    min_tokens: 0,
    suffix: null,
    ignore_eos: false,
    token_info: top,
    cache_prompt: true,
    grammar: null,
    logit_bias: bias,
    seed: 0,
  };
}
