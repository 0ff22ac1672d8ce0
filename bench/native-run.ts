/**
 * One native llama.cpp measurement in its own process (so its peak RSS is its own):
 * `tsx bench/native-run.ts <model.gguf> <threads> <promptTokens> <decodeTokens> [decodeContext]` prints JSON
 * { prefillMs, decodeTps, finite, maxRssMb }. Loads node-llama-cpp from .bench/native.
 */
import { ensureNative } from '../test/differential/ensure-native';
import { benchPrompt, DECODE_PROMPT, decodePrompt } from './prompts';

interface Sequence {
  evaluate(tokens: number[], options: { temperature: number }): AsyncGenerator<number>;
  evaluateWithMetadata(
    tokens: number[],
    metadata: { probabilities: true },
    options: { temperature: number },
  ): AsyncGenerator<{ probabilities: Map<number, number> }>;
  clearHistory(): Promise<void>;
}
interface Model {
  tokenize(text: string, special: boolean, options: string): number[];
  createContext(options: object): Promise<{ getSequence(): Sequence }>;
}
interface Api {
  getLlama(options: object): Promise<{ loadModel(options: { modelPath: string }): Promise<Model> }>;
}

const DECODE_CAP_MS = 15_000;
const [path = '', threadArg = '1', promptArg = '512', decodeArg = '128', contextArg = '0'] = process.argv.slice(2);
const threads = Number(threadArg);
const api = (await import(await ensureNative())) as Api;
const llama = await api.getLlama({ gpu: false, build: 'never', logLevel: 'error', maxThreads: threads });
const model = await llama.loadModel({ modelPath: path });
const context = await model.createContext({ contextSize: 4096, threads: { ideal: threads, min: threads } });
const sequence = context.getSequence();
const tokenize = (text: string): number[] => model.tokenize(text, false, 'trimLeadingSpace');

// Finite logits (and a warm-up): the first distribution after a short prompt.
let finite = false;
for await (const item of sequence.evaluateWithMetadata(
  tokenize(DECODE_PROMPT),
  { probabilities: true },
  { temperature: 0 },
)) {
  const values = [...item.probabilities.values()];
  const sum = values.reduce((a, b) => a + b, 0);
  finite = values.length > 0 && values.every(Number.isFinite) && Math.abs(sum - 1) < 1e-3;
  break;
}
await sequence.clearHistory();

// Prefill: the prompt, up to the first sampled token.
const prompt = tokenize(benchPrompt(Number(promptArg)));
let start = performance.now();
for await (const _ of sequence.evaluate(prompt, { temperature: 0 })) break;
const prefillMs = performance.now() - start;
await sequence.clearHistory();

// Decode: tokens after the first, per second.
const decodeTokens = Number(decodeArg);
let first = 0;
let count = 0;
start = performance.now();
for await (const _ of sequence.evaluate(tokenize(decodePrompt(Number(contextArg))), { temperature: 0 })) {
  if (++count === 1) first = performance.now();
  if (count >= decodeTokens || performance.now() - first > DECODE_CAP_MS) break; // 2 busy threads can crawl
}
const decodeTps = (count - 1) / ((performance.now() - first) / 1000);
console.log(
  JSON.stringify({
    prefillMs,
    promptTokens: prompt.length,
    decodeTps,
    finite,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  }),
);
process.exit(0);
