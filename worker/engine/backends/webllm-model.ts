import type { Completion, CompletionCreateParamsStreaming } from '@mlc-ai/web-llm';
import { InvalidRequestError } from '../../../src/core/errors';
import type { ModelCard } from '../../../src/core/model-card';
import type { PromptInput } from '../../../src/core/openai/types';
import type { ChoiceRequest, GenerationEvent, LoadedModel, ModelCapabilities, PromptToken } from '../backend';
import { webllmChunkEvents, type ChunkState } from './webllm-chunk';
import { mapGenerateError } from './webllm-errors';
import { toWebLLMParams, WEBLLM_UNSUPPORTED } from './webllm-request';

/** The part of WebLLM's `MLCEngine` a loaded model uses (a fake implements it in unit tests). */
export interface WebLLMEngineLike {
  completions: { create(request: CompletionCreateParamsStreaming): Promise<AsyncIterable<Completion>> };
  interruptGenerate(): void | Promise<void>;
  unload(): Promise<void>;
}

/** A model loaded in its own WebLLM `MLCEngine` (one engine per model: interrupts stay per model). */
export class WebLLMModel implements LoadedModel {
  readonly capabilities: ModelCapabilities = { unsupported: WEBLLM_UNSUPPORTED, suffix: false };

  constructor(
    private readonly engine: WebLLMEngineLike,
    /** WebLLM's id of the loaded variant. */
    private readonly variant: string,
    readonly contextLength: number,
    readonly vocabSize: number,
    readonly details: Partial<Pick<ModelCard, 'size_bytes' | 'cached' | 'variant'>> = {},
  ) {}

  /**
   * One WebLLM streamed completion as engine events. The iterator is always `return()`ed (an
   * abandoned one holds the model's lock forever); an abort interrupts this engine, which runs
   * only this request (the scheduler runs one at a time per model, later ones wait in our queue).
   */
  async *generate(request: ChoiceRequest, signal: AbortSignal): AsyncIterable<GenerationEvent> {
    const prompt = await this.promptText(request.prompt);
    if (signal.aborted) return;
    const wantTokens = request.token_info !== null;
    let iterator: AsyncIterator<Completion> | undefined;
    let running = false;
    const interrupt = () => {
      if (running) void this.engine.interruptGenerate();
    };
    signal.addEventListener('abort', interrupt, { once: true });
    const state: ChunkState = { finish: null };
    let ended = false;
    try {
      iterator = (await this.engine.completions.create(toWebLLMParams(request, prompt, this.variant)))[Symbol.asyncIterator]();
      while (!signal.aborted) {
        running = true;
        const next = await iterator.next();
        running = false;
        if (next.done || signal.aborted) break;
        for (const event of webllmChunkEvents(next.value, wantTokens, state)) {
          ended ||= event.type === 'end';
          yield event;
        }
      }
    } catch (error) {
      if (!signal.aborted) throw mapGenerateError(error);
    } finally {
      signal.removeEventListener('abort', interrupt);
      await iterator?.return?.();
    }
    if (!ended && !signal.aborted) throw mapGenerateError(new Error('WebLLM ended the stream without usage'));
  }

  async promptText(prompt: PromptInput): Promise<string> {
    if (typeof prompt === 'string') return prompt;
    throw new InvalidRequestError('Token-id prompts are not supported by this model\'s backend.', 'prompt', 'unsupported_parameter');
  }

  /** WebLLM has no tokenizer call: one greedy token, and its usage says the prompt's size. */
  async countPromptTokens(prompt: PromptInput, signal: AbortSignal): Promise<number> {
    const probe: ChoiceRequest = {
      prompt, max_tokens: 1, min_tokens: 0, ignore_eos: false, token_info: null, cache_prompt: true,
      temperature: 0, top_p: 1, top_k: 0, min_p: 0, typical_p: 1, mirostat: 0, mirostat_tau: 5, mirostat_eta: 0.1,
      presence_penalty: 0, frequency_penalty: 0, repetition_penalty: 1, logit_bias: {}, seed: null,
    };
    for await (const event of this.generate(probe, signal)) if (event.type === 'end') return event.promptTokens;
    return 0;
  }

  async scorePrompt(_prompt: PromptInput, _top: number, _signal: AbortSignal): Promise<PromptToken[]> {
    throw new InvalidRequestError("'echo' with 'logprobs' is not supported by the webllm backend (WebLLM cannot score prompt tokens).", 'echo', 'unsupported_parameter');
  }

  unload(): Promise<void> {
    return this.engine.unload();
  }
}
