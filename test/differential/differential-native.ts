/** Greedy decoding with top-5 logprobs on native llama.cpp through node-llama-cpp (loaded at run time). */

export interface NativeStep {
  token: string;
  top: Array<[string, number]>;
}

interface NativeModel {
  tokenize(text: string, special: boolean, options: string): number[];
  detokenize(tokens: number[]): string;
  createContext(options: { contextSize: number }): Promise<{ getSequence(): NativeSequence }>;
}

interface NativeSequence {
  evaluateWithMetadata(
    tokens: number[],
    metadata: { probabilities: true },
    options: { temperature: number },
  ): AsyncIterable<{ token: number; probabilities: Map<number, number> }>;
}

function isNativeApi(value: unknown): value is {
  getLlama(options: object): Promise<{ loadModel(options: { modelPath: string }): Promise<NativeModel> }>;
} {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'getLlama') === 'function';
}

export async function nativeGreedy(
  entry: string,
  modelPath: string,
  prompts: string[],
  tokens: number,
): Promise<Map<string, NativeStep[]>> {
  const api: unknown = await import(entry);
  if (!isNativeApi(api)) throw new Error('node-llama-cpp has no getLlama()');
  const llama = await api.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  const model = await llama.loadModel({ modelPath });
  const out = new Map<string, NativeStep[]>();
  for (const prompt of prompts) {
    const context = await model.createContext({ contextSize: 512 });
    const steps: NativeStep[] = [];
    const input = model.tokenize(prompt, false, 'trimLeadingSpace');
    for await (const item of context
      .getSequence()
      .evaluateWithMetadata(input, { probabilities: true }, { temperature: 0 })) {
      const top = [...item.probabilities.entries()]
        .slice(0, 5)
        .map(([id, p]): [string, number] => [model.detokenize([id]), Math.log(p)]);
      const text = model.detokenize([item.token]);
      if (text === '' && steps.length < tokens) break; // EOS
      steps.push({ token: text, top });
      if (steps.length >= tokens) break;
    }
    out.set(prompt, steps);
  }
  return out;
}
