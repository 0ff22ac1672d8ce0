import type { ChatCompletionTokenLogprob, Completion, CompletionCreateParamsStreaming } from '@mlc-ai/web-llm';
import { postInitAndCheckFieldsCompletion } from '@mlc-ai/web-llm';
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
