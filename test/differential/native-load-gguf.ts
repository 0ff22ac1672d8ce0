/**
 * Loads GGUF files on native llama.cpp (node-llama-cpp from .bench/native), one path per line
 * on stdin, and prints one JSON line per file: `{file, loaded, error?}`. Loaded means the model
 * loaded, a context was created and three tokens were generated for `abc`. An abort in
 * llama.cpp ends the process: its parent (check-gguf-native.ts) counts that as a crash.
 */
import { createInterface } from 'node:readline';
import { ensureNative } from './ensure-native';

interface Sequence {
  evaluate(tokens: number[], options: { temperature: number }): AsyncGenerator<number>;
}
interface Model {
  tokenize(text: string): number[];
  createContext(options: { contextSize: number }): Promise<{ getSequence(): Sequence; dispose(): Promise<void> }>;
  dispose(): Promise<void>;
}
interface Llama {
  loadModel(options: { modelPath: string }): Promise<Model>;
}

function isApi(value: unknown): value is { getLlama(options: object): Promise<Llama> } {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'getLlama') === 'function';
}

const api: unknown = await import(await ensureNative());
if (!isApi(api)) throw new Error('node-llama-cpp has no getLlama()');
const llama = await api.getLlama({ gpu: false, build: 'never', logLevel: 'disabled' });
for await (const file of createInterface({ input: process.stdin })) {
  if (file === '') continue;
  try {
    const model = await llama.loadModel({ modelPath: file });
    const context = await model.createContext({ contextSize: 512 });
    let count = 0;
    for await (const _ of context.getSequence().evaluate(model.tokenize('abc'), { temperature: 0 }))
      if (++count >= 3) break;
    await context.dispose();
    await model.dispose();
    console.log(JSON.stringify({ file, loaded: true }));
  } catch (error) {
    console.log(JSON.stringify({ file, loaded: false, error: error instanceof Error ? error.message : String(error) }));
  }
}
