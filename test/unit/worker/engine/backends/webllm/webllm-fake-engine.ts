import type {
  ChatCompletionChunk,
  ChatCompletionRequestStreaming,
  ChatCompletionTokenLogprob,
  Completion,
  CompletionCreateParamsStreaming,
  CompletionUsage,
  CreateEmbeddingResponse,
  EmbeddingCreateParams,
} from '@mlc-ai/web-llm';
import {
  ModelType,
  postInitAndCheckFieldsChatCompletion,
  postInitAndCheckFieldsCompletion,
  postInitAndCheckFieldsEmbedding,
} from '@mlc-ai/web-llm';
import type { WebLLMEmbeddingEngine } from '../../../../../../worker/engine/backends/webllm/embedder';
import type { WebLLMEngineLike } from '../../../../../../worker/engine/backends/webllm/model';

/** One scripted step of a fake WebLLM generation: the delta text and its token logprobs. */
export interface FakeStep {
  text: string;
  logprobs: ChatCompletionTokenLogprob[];
}

export const lp = (token: string, logprob: number, top: Array<[string, number]> = []): ChatCompletionTokenLogprob => ({
  token,
  logprob,
  bytes: Array.from(new TextEncoder().encode(token)),
  top_logprobs: [[token, logprob] as [string, number], ...top].map(([t, l]) => ({
    token: t,
    logprob: l,
    bytes: Array.from(new TextEncoder().encode(t)),
  })),
});

/** The fake model's script: for a prompt (a chat's last message), its steps and why it ends. */
export type FakeScript = (prompt: string, call: number) => { steps: FakeStep[]; finish: 'stop' | 'length' };

const usageOf = (prompt: number, completion: number): CompletionUsage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  extra: {
    e2e_latency_s: 0,
    prefill_tokens_per_s: 0,
    decode_tokens_per_s: 0,
    time_to_first_token_s: 0,
    time_per_output_token_s: 0,
  },
});

/**
 * A fake `MLCEngine` that streams WebLLM-shaped completion and chat chunks (as WebLLM 0.2.86
 * builds them: one delta per step with the step's logprobs when asked, a final chunk with the
 * finish reason, a usage chunk), after running each request through WebLLM's own validator.
 * A chat's prompt size is the length of its messages' text (system included); one over
 * `contextWindow` fails when its stream is first read, as in WebLLM.
 */
export class FakeEngine implements WebLLMEngineLike {
  readonly requests: CompletionCreateParamsStreaming[] = [];
  readonly chatRequests: ChatCompletionRequestStreaming[] = [];
  interrupts = 0;
  returned = 0;

  constructor(
    private readonly script: FakeScript,
    /** A prompt over this many tokens fails at its first step, as WebLLM's prefill does. */
    private readonly contextWindow = Number.POSITIVE_INFINITY,
  ) {}

  completions = {
    create: async (request: CompletionCreateParamsStreaming): Promise<AsyncIterable<Completion>> => {
      postInitAndCheckFieldsCompletion(request, 'fake');
      this.requests.push(request);
      const run = this.script(request.prompt, this.requests.length + this.chatRequests.length - 1);
      const chunk = (choices: Completion['choices'], usage?: CompletionUsage): Completion => ({
        id: 'x',
        object: 'text_completion',
        created: 0,
        model: 'fake',
        choices,
        ...(usage ? { usage } : {}),
      });
      return this.stream(run.steps.length, request.prompt.length, (step, usage) => {
        if (usage) return chunk([], usage);
        const at = run.steps[step];
        if (!at) return chunk([{ text: '', index: 0, finish_reason: run.finish }]);
        return chunk([
          {
            text: at.text,
            index: 0,
            finish_reason: null,
            logprobs: request.logprobs ? { content: at.logprobs } : null,
          },
        ]);
      });
    },
  };

  chat = {
    completions: {
      create: async (request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> => {
        postInitAndCheckFieldsChatCompletion(request, 'fake', ModelType.LLM);
        this.chatRequests.push(request);
        const text = request.messages.map((message) => (typeof message.content === 'string' ? message.content : ''));
        const run = this.script(text.at(-1) ?? '', this.requests.length + this.chatRequests.length - 1);
        const chunk = (choices: ChatCompletionChunk['choices'], usage?: CompletionUsage): ChatCompletionChunk => ({
          id: 'x',
          object: 'chat.completion.chunk',
          created: 0,
          model: 'fake',
          choices,
          ...(usage ? { usage } : {}),
        });
        return this.stream(run.steps.length, text.join('').length, (step, usage) => {
          if (usage) return chunk([], usage);
          const at = run.steps[step];
          if (!at) return chunk([{ delta: {}, index: 0, finish_reason: run.finish }]);
          return chunk([
            {
              delta: { content: at.text, role: 'assistant' },
              index: 0,
              finish_reason: null,
              logprobs: request.logprobs ? { content: at.logprobs } : null,
            },
          ]);
        });
      },
    },
  };

  /** `steps` step chunks, the finish chunk (step === steps), then the usage chunk. */
  private stream<C>(
    steps: number,
    promptTokens: number,
    chunk: (step: number, usage?: CompletionUsage) => C,
  ): AsyncIterable<C> {
    const engine = this;
    async function* generate(): AsyncGenerator<C> {
      try {
        if (promptTokens > engine.contextWindow) {
          // WebLLM tokenizes in its prefill, inside the stream (its error classes are not exported).
          const error = new Error(
            `Prompt tokens exceed context window size: number of prompt tokens: ${promptTokens}; context window size: ${engine.contextWindow}`,
          );
          error.name = 'ContextWindowSizeExceededError';
          throw error;
        }
        for (let step = 0; step <= steps; step++) yield chunk(step);
        yield chunk(steps, usageOf(promptTokens, steps));
      } finally {
        engine.returned += 1;
      }
    }
    return generate();
  }

  interruptGenerate(): void {
    this.interrupts += 1;
  }

  async unload(): Promise<void> {}
}

/**
 * A fake embedding `MLCEngine` (WebLLM 0.2.86's `embedding()`): each request runs through
 * WebLLM's own embedding validator first; text "tokenizes" on whitespace, ids stay as they are;
 * an input longer than `contextWindow` throws WebLLM's error (by name: its classes are not
 * exported); each vector is `[tokens, call]` (unnormalised, as WebLLM's CLS state is).
 */
export class FakeEmbeddingEngine implements WebLLMEmbeddingEngine {
  readonly requests: EmbeddingCreateParams[] = [];

  constructor(private readonly contextWindow = 16) {}

  embeddings = {
    create: async (request: EmbeddingCreateParams): Promise<CreateEmbeddingResponse> => {
      postInitAndCheckFieldsEmbedding(request, 'fake');
      this.requests.push(request);
      const call = this.requests.length - 1;
      const inputs = typeof request.input === 'string' ? [request.input] : request.input;
      const sizes = inputs.map((input) =>
        typeof input === 'string' ? input.split(/\s+/).length : Array.isArray(input) ? input.length : 1,
      );
      const longest = Math.max(...sizes);
      if (longest > this.contextWindow) {
        const error = new Error(
          `The embedding model you are using only supports up to ${this.contextWindow} context size.However, an input in the batch has size ${longest}.`,
        );
        error.name = 'EmbeddingExceedContextWindowSizeError';
        throw error;
      }
      const total = sizes.reduce((a, b) => a + b, 0);
      return {
        object: 'list',
        model: 'fake',
        data: sizes.map((size, index) => ({ object: 'embedding', index, embedding: [size, call] })),
        usage: { prompt_tokens: total, total_tokens: total, extra: { prefill_tokens_per_s: 0 } },
      };
    },
  };

  async unload(): Promise<void> {}
}
