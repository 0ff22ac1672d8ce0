/**
 * Greedy generation under a GBNF grammar on native llama.cpp (node-llama-cpp, loaded at run
 * time from .bench/native), and a check that native llama.cpp parses a grammar at all.
 */

interface NativeGrammar {
  readonly grammar: string;
}

interface NativeCompletion {
  generateCompletion(
    prompt: string,
    options: { grammar: NativeGrammar; maxTokens: number; temperature: number },
  ): Promise<string>;
}

interface NativeLlama {
  loadModel(options: { modelPath: string }): Promise<NativeModel>;
  createGrammar(options: { grammar: string }): Promise<NativeGrammar>;
}

interface NativeModel {
  createContext(options: { contextSize: number }): Promise<{ getSequence(): unknown; dispose(): Promise<void> }>;
}

interface NativeApi {
  getLlama(options: object): Promise<NativeLlama>;
  LlamaCompletion: new (options: { contextSequence: unknown }) => NativeCompletion;
}

function isNativeApi(value: unknown): value is NativeApi {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof Reflect.get(value, 'getLlama') === 'function' &&
    typeof Reflect.get(value, 'LlamaCompletion') === 'function'
  );
}

/** A loaded model that can run grammar-constrained greedy completions. */
export interface NativeGrammarRunner {
  /** Parses `gbnf` natively; resolves to the parser's complaint, or null when it is accepted. */
  parse(gbnf: string): Promise<string | null>;
  /** Greedy completion of `prompt` under `gbnf`, at most `maxTokens` tokens. */
  complete(prompt: string, gbnf: string, maxTokens: number): Promise<string>;
}

/** Loads node-llama-cpp from `entry` (a file URL) and the GGUF at `modelPath`. */
export async function openNativeRunner(entry: string, modelPath: string): Promise<NativeGrammarRunner> {
  const api: unknown = await import(entry);
  if (!isNativeApi(api)) throw new Error('node-llama-cpp has no getLlama()/LlamaCompletion');
  const llama = await api.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  const model = await llama.loadModel({ modelPath });
  return {
    async parse(gbnf) {
      try {
        await llama.createGrammar({ grammar: gbnf });
        return null;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
    async complete(prompt, gbnf, maxTokens) {
      const grammar = await llama.createGrammar({ grammar: gbnf });
      const context = await model.createContext({ contextSize: 512 });
      try {
        const completion = new api.LlamaCompletion({ contextSequence: context.getSequence() });
        return await completion.generateCompletion(prompt, { grammar, maxTokens, temperature: 0 });
      } finally {
        await context.dispose();
      }
    },
  };
}
