import type {
  ChatCompletionChunk,
  ChatCompletionRequestStreaming,
  Completion,
  CompletionCreateParamsStreaming,
} from '@mlc-ai/web-llm';
import { InvalidRequestError } from '#core/domain/errors';
import type { ModelCard } from '#core/domain/model-card';
import type { ModelCapabilities } from '#core/domain/capabilities';
import type { ChatPrompt } from '#core/domain/chat-prompt';
import type { PromptInput } from '#core/domain/generation';
import { GREEDY } from '#core/domain/parameters';
import type { ChoiceRequest, ConversationRunner, GenerationEvent, LoadedModel, PromptToken } from '../../backend';
import { toWebLLMChatParams } from './chat-request';
import { webllmChatChunkEvents, webllmChunkEvents, type ChunkState } from './chunk';
import { mapGenerateError, type GenerateFields } from './errors';
import { toWebLLMParams, WEBLLM_MAX_TOKEN_BYTES, WEBLLM_UNSUPPORTED } from './request';

/** The part of WebLLM's `MLCEngine` a loaded model uses (a fake implements it in unit tests). */
export interface WebLLMEngineLike {
  completions: { create(request: CompletionCreateParamsStreaming): Promise<AsyncIterable<Completion>> };
  chat: {
    completions: { create(request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> };
  };
  interruptGenerate(): void | Promise<void>;
  unload(): Promise<void>;
}

/** A stream chunk of either WebLLM endpoint: what `generate` needs of it. */
type AnyChunk = Completion | ChatCompletionChunk;

/** The request for one internal greedy token (WebLLM reports the prompt's size only in usage). */
const probe = <P>(prompt: P): ChoiceRequest<P> => ({
  ...GREEDY,
  prompt,
  max_tokens: 1,
  min_tokens: 0,
  suffix: null,
  ignore_eos: false,
  token_info: null,
  cache_prompt: true,
  speculative: null,
  lora: [],
  grammar: null,
});

/** A model loaded in its own WebLLM `MLCEngine` (one engine per model: interrupts stay per model). */
export class WebLLMModel implements LoadedModel {
  readonly capabilities: ModelCapabilities;
  /** WebLLM renders conversations with its own conversation templates: see `conversations`. */
  readonly chatTemplate = null;
  readonly conversations: ConversationRunner;
  /** Prompt sizes WebLLM reported (its usage chunk), by prompt text or conversation JSON. */
  private readonly promptSizes = new Map<string, number>();
  /** An interrupted stream being read to its end (holds WebLLM's model lock until then). */
  private settling: Promise<void> = Promise.resolve();

  constructor(
    private readonly engine: WebLLMEngineLike,
    /** WebLLM's id of the loaded variant. */
    private readonly variant: string,
    contextLength: number,
    vocabSize: number,
    readonly details: Partial<Pick<ModelCard, 'size_bytes' | 'cached' | 'variant' | 'accelerator'>> = {},
  ) {
    this.capabilities = {
      unsupported: [...WEBLLM_UNSUPPORTED],
      context_length: contextLength,
      vocab_size: vocabSize,
      max_token_bytes: WEBLLM_MAX_TOKEN_BYTES,
    };
    this.conversations = {
      generate: (request, signal) => this.generateChat(request, signal),
      countPromptTokens: (chat, signal) =>
        this.countTokens(JSON.stringify(chat.messages), () => this.generateChat(probe(chat), signal)),
      // Mapping refuses what WebLLM cannot run; the model writes `<think>` itself (WebLLM's
      // templates end with the assistant's header).
      prepare: (request) => {
        toWebLLMChatParams(request, this.variant);
        return { opensReasoning: false };
      },
    };
  }

  /** One WebLLM streamed completion of a text prompt as engine events. */
  async *generate(request: ChoiceRequest, signal: AbortSignal): AsyncIterable<GenerationEvent> {
    const prompt = await this.promptText(request.prompt);
    if (signal.aborted) return;
    const wantTokens = request.token_info !== null;
    yield* this.stream(
      prompt,
      { prompt: 'prompt', constraint: null },
      () => this.engine.completions.create(toWebLLMParams(request, prompt, this.variant)),
      (chunk: Completion, state) => webllmChunkEvents(chunk, wantTokens, state),
      signal,
    );
  }

  /** One WebLLM streamed chat completion of a conversation (its own template) as engine events. */
  private async *generateChat(request: ChoiceRequest<ChatPrompt>, signal: AbortSignal): AsyncIterable<GenerationEvent> {
    const params = toWebLLMChatParams(request, this.variant);
    if (signal.aborted) return;
    const wantTokens = request.token_info !== null;
    yield* this.stream(
      JSON.stringify(request.prompt.messages),
      { prompt: 'messages', constraint: request.grammar?.param ?? null },
      () => this.engine.chat.completions.create(params),
      (chunk: ChatCompletionChunk, state) => webllmChatChunkEvents(chunk, wantTokens, state),
      signal,
    );
  }

  /**
   * A WebLLM stream as engine events. The iterator is always `return()`ed (an abandoned one
   * holds the model's lock forever); an abort interrupts this engine, which runs only this
   * request (the scheduler runs one at a time per model, later ones wait in our queue).
   */
  private async *stream<C extends AnyChunk>(
    key: string,
    fields: GenerateFields,
    create: () => Promise<AsyncIterable<C>>,
    events: (chunk: C, state: ChunkState) => GenerationEvent[],
    signal: AbortSignal,
  ): AsyncIterable<GenerationEvent> {
    let iterator: AsyncIterator<C> | undefined;
    // On abort (client gone, or a stop ended the choice while we wait at a yield): interrupt
    // this engine and read the stream to its end, so its lock is free for the next call.
    const interrupt = () => {
      if (!iterator) return;
      void this.engine.interruptGenerate();
      this.settling = this.drain(iterator, key);
    };
    signal.addEventListener('abort', interrupt, { once: true });
    const state: ChunkState = { finish: null };
    let ended = false;
    try {
      iterator = (await create())[Symbol.asyncIterator]();
      while (!signal.aborted) {
        const next = await iterator.next();
        if (next.done || signal.aborted) break;
        if (next.value.usage) this.remember(key, next.value.usage.prompt_tokens);
        for (const event of events(next.value, state)) {
          ended ||= event.type === 'end';
          yield event;
        }
      }
    } catch (error) {
      if (!signal.aborted) throw mapGenerateError(error, fields);
    } finally {
      signal.removeEventListener('abort', interrupt);
      await this.settling;
      await iterator?.return?.();
    }
    if (!ended && !signal.aborted) throw mapGenerateError(new Error('WebLLM ended the stream without usage'));
  }

  /** After an interrupt WebLLM ends at its next step with a usage chunk: read it, then let go. */
  private async drain(iterator: AsyncIterator<AnyChunk>, key: string): Promise<void> {
    try {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        if (next.value.usage) this.remember(key, next.value.usage.prompt_tokens);
      }
    } catch {
      // the request is over either way
    }
  }

  private remember(key: string, tokens: number): void {
    if (this.promptSizes.size > 256) this.promptSizes.clear();
    this.promptSizes.set(key, tokens);
  }

  async promptText(prompt: PromptInput): Promise<string> {
    if (typeof prompt === 'string') return prompt;
    throw new InvalidRequestError(
      "Token-id prompts are not supported by this model's backend.",
      'prompt',
      'unsupported_parameter',
    );
  }

  /** WebLLM has no tokenizer call: one greedy token, and its usage says the prompt's size. */
  async countPromptTokens(prompt: PromptInput, signal: AbortSignal): Promise<number> {
    const text = await this.promptText(prompt);
    return this.countTokens(text, () => this.generate(probe(prompt), signal));
  }

  /** The size WebLLM reported for `key`, or one greedy token's usage (`run`). */
  private async countTokens(key: string, run: () => AsyncIterable<GenerationEvent>) {
    await this.settling;
    const known = this.promptSizes.get(key);
    if (known !== undefined) return known;
    for await (const event of run()) if (event.type === 'end') return event.promptTokens;
    return 0;
  }

  async scorePrompt(_prompt: PromptInput, _top: number, _signal: AbortSignal): Promise<PromptToken[]> {
    throw new InvalidRequestError(
      "'echo' with 'logprobs' is not supported by the webllm backend (WebLLM cannot score prompt tokens).",
      'echo',
      'unsupported_parameter',
    );
  }

  unload(): Promise<void> {
    return this.engine.unload();
  }
}
