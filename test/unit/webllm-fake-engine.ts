import type {
  ChatCompletionTokenLogprob,
  Completion,
  CompletionCreateParamsStreaming,
  CreateEmbeddingResponse,
  EmbeddingCreateParams,
} from '@mlc-ai/web-llm';
import { postInitAndCheckFieldsCompletion, postInitAndCheckFieldsEmbedding } from '@mlc-ai/web-llm';
import type { WebLLMEmbeddingEngine } from '../../worker/engine/backends/webllm/embedder';
import type { WebLLMEngineLike } from '../../worker/engine/backends/webllm/model';

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

/**
 * A fake `MLCEngine` that streams WebLLM-shaped completion chunks (as WebLLM 0.2.86 builds
 * them: one delta per step with the step's logprobs when asked, a final chunk with the finish
 * reason, a usage chunk), after running the request through WebLLM's own validator.
 */
export class FakeEngine implements WebLLMEngineLike {
  readonly requests: CompletionCreateParamsStreaming[] = [];
  interrupts = 0;
  returned = 0;

  constructor(
    private readonly script: (prompt: string, call: number) => { steps: FakeStep[]; finish: 'stop' | 'length' },
  ) {}

  completions = {
    create: async (request: CompletionCreateParamsStreaming): Promise<AsyncIterable<Completion>> => {
      postInitAndCheckFieldsCompletion(request, 'fake');
      this.requests.push(request);
      const { steps, finish } = this.script(request.prompt, this.requests.length - 1);
      const engine = this;
      const chunk = (choices: Completion['choices'], usage?: Completion['usage']): Completion => ({
        id: 'x',
        object: 'text_completion',
        created: 0,
        model: 'fake',
        choices,
        ...(usage ? { usage } : {}),
      });
      async function* stream(): AsyncGenerator<Completion> {
        try {
          for (const step of steps) {
            yield chunk([
              {
                text: step.text,
                index: 0,
                finish_reason: null,
                logprobs: request.logprobs ? { content: step.logprobs } : null,
              },
            ]);
          }
          yield chunk([{ text: '', index: 0, finish_reason: finish }]);
          yield chunk([], {
            prompt_tokens: request.prompt.length,
            completion_tokens: steps.length,
            total_tokens: request.prompt.length + steps.length,
            extra: {
              e2e_latency_s: 0,
              prefill_tokens_per_s: 0,
              decode_tokens_per_s: 0,
              time_to_first_token_s: 0,
              time_per_output_token_s: 0,
            },
          });
        } finally {
          engine.returned += 1;
        }
      }
      return stream();
    },
  };

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
