/**
 * Native llama.cpp (node-llama-cpp, loaded at run time) as the Qwen3 differential sees it:
 * tokenize with special-token parsing, greedy steps with token ids and top-k logprobs (EOS
 * included), detokenize, and llama.cpp's own Jinja rendering of the GGUF's chat template.
 */

/** One greedy step: the chosen id and the top candidates as [id, logprob]. */
export interface NativeIdStep {
  token: number;
  top: Array<[number, number]>;
}

/** The handful of native operations the differential needs. */
export interface NativeQwen3 {
  tokenize(text: string): number[];
  detokenize(tokens: number[]): string;
  /** Control tokens spelled as their text, as llama-server's `/detokenize` spells them. */
  detokenizeSpecial(tokens: number[]): string;
  greedy(prompt: number[], maxTokens: number, topK: number): Promise<NativeIdStep[]>;
  renderChatTemplate(messages: Array<{ role: string; content: string }>): string;
  isEog(token: number): boolean;
}

interface Model {
  tokenize(text: string, special: boolean): number[];
  detokenize(tokens: number[], special: boolean): string;
  isEogToken(token: number): boolean;
  fileInfo: { metadata: { tokenizer: { chat_template?: string } } };
  createContext(options: { contextSize: number }): Promise<{ getSequence(): Sequence; dispose(): Promise<void> }>;
}

interface Sequence {
  evaluateWithMetadata(
    tokens: number[],
    metadata: { probabilities: true },
    options: { temperature: number; yieldEogToken: boolean },
  ): AsyncIterable<{ token: number; probabilities: Map<number, number> }>;
}

type Renderer = new (template: string) => { render(items: Record<string, unknown>): string };

interface Llama {
  loadModel(options: { modelPath: string }): Promise<Model>;
}

function isNativeApi(value: unknown): value is { getLlama(options: object): Promise<Llama> } {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'getLlama') === 'function';
}

function isRenderer(value: unknown): value is Renderer {
  return typeof value === 'function';
}

/** Loads the GGUF at `modelPath` in node-llama-cpp (`entry`: its module URL), CPU only. */
export async function loadNativeQwen3(entry: string, modelPath: string): Promise<NativeQwen3> {
  const api: unknown = await import(entry);
  if (!isNativeApi(api)) throw new Error('node-llama-cpp has no getLlama()');
  const llama = await api.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  const model = await llama.loadModel({ modelPath });
  // node-llama-cpp's binding of llama.cpp's Jinja engine (internal, pinned version 3.22.1).
  const renderer: unknown = Reflect.get(Reflect.get(llama, '_bindings') ?? {}, 'AddonJinjaRenderer');
  return {
    tokenize: (text) => model.tokenize(text, true),
    detokenize: (tokens) => model.detokenize(tokens, false),
    detokenizeSpecial: (tokens) => model.detokenize(tokens, true),
    isEog: (token) => model.isEogToken(token),
    async greedy(prompt, maxTokens, topK) {
      const context = await model.createContext({ contextSize: 512 });
      const steps: NativeIdStep[] = [];
      try {
        for await (const item of context
          .getSequence()
          .evaluateWithMetadata(prompt, { probabilities: true }, { temperature: 0, yieldEogToken: true })) {
          steps.push({
            token: item.token,
            top: [...item.probabilities.entries()].slice(0, topK).map(([id, p]): [number, number] => [id, Math.log(p)]),
          });
          if (model.isEogToken(item.token) || steps.length >= maxTokens) break;
        }
      } finally {
        await context.dispose();
      }
      return steps;
    },
    renderChatTemplate(messages) {
      const template = model.fileInfo.metadata.tokenizer.chat_template;
      if (template === undefined) throw new Error('the GGUF has no chat template');
      if (!isRenderer(renderer)) throw new Error('this node-llama-cpp exposes no AddonJinjaRenderer');
      return new renderer(template).render({
        messages,
        add_generation_prompt: true,
        bos_token: '',
        eos_token: '<|im_end|>',
      });
    },
  };
}
