/**
 * Embeddings on the webllm backend, through WebLLM 0.2.x's own embedding validator and
 * catalogue: the requests it gets (chunked by the build's batch size, BERT specials added), the
 * neutral result, and the capability refusals (generation on an embedding build, embeddings on
 * a generative one).
 */
import { ModelType, postInitAndCheckFieldsEmbedding, prebuiltAppConfig, type ModelRecord } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { checkCapabilities } from '../../../../../../src/core/domain/capabilities';
import { checkEmbeddingCapabilities } from '../../../../../../src/core/domain/embedding';
import { OpenAIError } from '../../../../../../src/core/domain/errors';
import type {
  EngineToSw,
  EngineToSwEmbedding,
  JobEvents,
  MessageOf,
} from '../../../../../../src/core/protocol/protocol';
import { validateCompletion } from '../../../../../../src/core/openai/validate-completion';
import { resolveWebLLM } from '../../../../../../src/page/backends/webllm';
import {
  EMBEDDING_MODEL_TYPE,
  embeddingBatchSize,
  embeddingChunks,
  isEmbeddingRecord,
} from '../../../../../../worker/engine/backends/webllm/embedder';
import { WebLLMEmbeddingModel } from '../../../../../../worker/engine/backends/webllm/embedding-model';
import { WebLLMModel } from '../../../../../../worker/engine/backends/webllm/model';
import { variantRecords } from '../../../../../../worker/engine/backends/webllm/records';
import { ModelQueue } from '../../../../../../worker/engine/model-queue';
import { RequestLog } from '../../../../../../worker/engine/request-log';
import { runGeneration } from '../../../../../../worker/engine/run-generation';
import { serveEmbedding } from '../../../../../../worker/engine/serve-embedding';
import { embeddingsResponse, l2Normalize } from '../../../../../../worker/sw/routes/embeddings/embeddings-response';
import { validateEmbeddings } from '../../../../../../worker/sw/routes/embeddings/validate-embeddings';
import { FakeEmbeddingEngine, FakeEngine } from './webllm-fake-engine';

const catalogue = prebuiltAppConfig.model_list;
const embeddingRecords = catalogue.filter((record) => record.model_type === ModelType.embedding);
const record = (id: string): ModelRecord => {
  const found = catalogue.find((entry) => entry.model_id === id);
  if (!found) throw new Error(`${id} is not in WebLLM's catalogue`);
  return found;
};

function embeddingModel(id = 'snowflake-arctic-embed-m-q0f32-MLC-b4', engine = new FakeEmbeddingEngine()) {
  return { engine, model: new WebLLMEmbeddingModel(engine, record(id), 16, 30522) };
}

/** The SW's validation and capability check, then the engine's serveEmbedding, then the SW's body. */
async function embed(body: Record<string, unknown>, model: WebLLMEmbeddingModel | WebLLMModel) {
  const request = validateEmbeddings({ model: 'm', ...body });
  checkEmbeddingCapabilities(model.capabilities, request);
  const { port1, port2 } = new MessageChannel();
  const events: Array<MessageOf<EngineToSwEmbedding>> = [];
  const answered = new Promise<void>((resolve) => {
    port1.onmessage = (event: MessageEvent<MessageOf<JobEvents['embedding']>>) => {
      // The engine acknowledges the job at once; the answer comes after.
      if (event.data.type === 'generation.alive') return;
      events.push(event.data);
      resolve();
    };
  });
  serveEmbedding({ loaded: Promise.resolve(model), queue: new ModelQueue() }, request, port2, new RequestLog());
  await answered;
  port1.close();
  const last = events.at(-1);
  if (last?.type !== 'embedding.result') return { error: last?.error };
  return {
    body: embeddingsResponse('m', last.vectors.map(l2Normalize), last.prompt_tokens, 'float'),
    raw: last.vectors,
  };
}

const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    if (error instanceof OpenAIError) return { status: error.status, param: error.param, code: error.code };
    throw error;
  }
  return null;
};

describe("WebLLM's embedding builds", () => {
  it('are recognised by model_type (our type-only constant is WebLLM enum value), with their batch size', () => {
    expect(EMBEDDING_MODEL_TYPE).toBe(ModelType.embedding);
    expect(embeddingRecords.length).toBeGreaterThan(0);
    for (const entry of embeddingRecords) {
      expect(isEmbeddingRecord(entry)).toBe(true);
      const fromId = /-b(\d+)$/.exec(entry.model_id)?.[1];
      const fromLib = /_batch(\d+)/.exec(entry.model_lib)?.[1];
      expect(embeddingBatchSize(entry)).toBe(Number(fromId ?? fromLib));
      if (fromId && fromLib) expect(fromId).toBe(fromLib);
    }
    expect(isEmbeddingRecord(catalogue.find((entry) => entry.model_type === undefined) ?? catalogue[0]!)).toBe(false);
    expect(embeddingBatchSize({ model: 'https://x/m/', model_id: 'x', model_lib: 'https://x/x.wasm' })).toBeNull();
  });

  it('a self-hosted model with embedding: true becomes an embedding record', () => {
    const spec = resolveWebLLM(
      { id: 'mine', url: '/m/', modelLib: '/m/lib_batch8-webgpu.wasm', embedding: true },
      'https://site.test/',
    );
    if (spec.source.kind !== 'webllm') throw new Error('not a webllm spec');
    const [mine] = variantRecords(spec.source.variants, catalogue);
    expect(mine?.model_type).toBe(ModelType.embedding);
    expect(mine && embeddingBatchSize(mine)).toBe(8);
    const plain = resolveWebLLM({ id: 'gen', url: '/g/', modelLib: '/g/lib.wasm' }, 'https://site.test/');
    if (plain.source.kind !== 'webllm') throw new Error('not a webllm spec');
    expect(variantRecords(plain.source.variants, catalogue)[0]?.model_type).toBeUndefined();
  });
});

describe('webllm embeddings through WebLLM 0.2.x validation', () => {
  it('text: wrapped in [CLS] ... [SEP] for its CLS pooling, one request, vectors unit length', async () => {
    const { engine, model } = embeddingModel();
    const { body, raw } = await embed({ input: ['ab', 'c d e'] }, model);
    expect(engine.requests).toEqual([
      { input: ['[CLS] ab [SEP]', '[CLS] c d e [SEP]'], model: 'snowflake-arctic-embed-m-q0f32-MLC-b4' },
    ]);
    expect(raw).toEqual([
      [3, 0],
      [5, 0],
    ]);
    expect(body?.usage).toEqual({ prompt_tokens: 8, total_tokens: 8 });
    for (const entry of body?.data ?? []) {
      const vector = entry.embedding as number[];
      expect(Math.hypot(...vector)).toBeCloseTo(1, 12);
    }
  });

  it('text already starting with [CLS] (as in WebLLM examples) is sent as it is', () => {
    expect(embeddingChunks(['[CLS] ab [SEP]', 'ab'], null)).toEqual([['[CLS] ab [SEP]', '[CLS] ab [SEP]']]);
  });

  it("more inputs than the build's batch (b4): chunks of 4, in order, tokens summed", async () => {
    const { engine, model } = embeddingModel('snowflake-arctic-embed-m-q0f32-MLC-b4');
    const inputs = Array.from({ length: 9 }, (_, i) => Array.from({ length: i + 1 }, () => 'w').join(' '));
    const { raw, body } = await embed({ input: inputs }, model);
    expect(engine.requests.map((request) => (request.input as string[]).length)).toEqual([4, 4, 1]);
    expect(raw?.map((vector) => vector[0])).toEqual(inputs.map((_, i) => i + 3));
    expect(raw?.map((vector) => vector[1])).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 2]);
    expect(body?.usage.prompt_tokens).toBe(inputs.reduce((sum, _, i) => sum + i + 3, 0));
  });

  it('token ids are embedded as given (WebLLM takes number[][]); mixed with text, each run is its own request', async () => {
    const { engine, model } = embeddingModel('snowflake-arctic-embed-m-q0f32-MLC-b32');
    const { raw } = await embed({ input: [[101, 7, 102]] }, model);
    expect(engine.requests[0]?.input).toEqual([[101, 7, 102]]);
    expect(raw).toEqual([[3, 0]]);
    expect(embeddingChunks(['a', [1, 2], [3], 'b'], 32)).toEqual([['[CLS] a [SEP]'], [[1, 2], [3]], ['[CLS] b [SEP]']]);
    for (const input of embeddingChunks(['a', [1, 2], [3], 'b'], 32))
      expect(() => postInitAndCheckFieldsEmbedding({ input, model: 'fake' }, 'fake')).not.toThrow();
  });

  it("an input over WebLLM's context: 400 context_length_exceeded naming input", async () => {
    const { model } = embeddingModel('snowflake-arctic-embed-m-q0f32-MLC-b4', new FakeEmbeddingEngine(4));
    const { error } = await embed({ input: ['a b c'] }, model);
    expect(error?.status).toBe(400);
    expect(error?.body.error).toMatchObject({ param: 'input', code: 'context_length_exceeded' });
  });

  it('WebLLM itself rejects what the SW refuses earlier (empty inputs, dimensions, base64)', () => {
    expect(() => postInitAndCheckFieldsEmbedding({ input: [] }, 'fake')).toThrow();
    expect(() => postInitAndCheckFieldsEmbedding({ input: [''] }, 'fake')).toThrow();
    expect(() => postInitAndCheckFieldsEmbedding({ input: 'a', dimensions: 4 }, 'fake')).toThrow(/dimensions/);
    expect(() => postInitAndCheckFieldsEmbedding({ input: 'a', encoding_format: 'base64' }, 'fake')).toThrow();
  });
});

describe('model kinds: capability refusals before WebLLM is called', () => {
  it('completions on an embedding build: 400 naming model (SW check and engine)', async () => {
    const { engine, model } = embeddingModel();
    const request = validateCompletion({ model: 'm', prompt: 'hi', max_tokens: 3 });
    expect(refusal(() => checkCapabilities(model.capabilities, request))).toEqual({
      status: 400,
      param: 'model',
      code: 'unsupported_parameter',
    });
    const { port1, port2 } = new MessageChannel();
    const events: Array<MessageOf<EngineToSw>> = [];
    port1.onmessage = (event: MessageEvent<MessageOf<EngineToSw>>) => events.push(event.data);
    await runGeneration(model, request, port2, new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    port1.close();
    const last = events.at(-1);
    expect(last?.type).toBe('generation.error');
    if (last?.type === 'generation.error') expect(last.error.body.error.param).toBe('model');
    expect(engine.requests).toHaveLength(0);
  });

  it('conversations and generation parameters on an embedding build: the refusal names model first', () => {
    const { model } = embeddingModel();
    const request = validateCompletion({ model: 'm', prompt: 'hi', top_k: 4, suffix: 'x' });
    expect(refusal(() => checkCapabilities(model.capabilities, request))?.param).toBe('model');
    expect(refusal(() => checkEmbeddingCapabilities(model.capabilities, { model: 'm', inputs: ['a'] }))).toBeNull();
  });

  it('embeddings on a generative WebLLM model: 400 naming model, WebLLM never called', async () => {
    const engine = new FakeEngine(() => ({ steps: [], finish: 'stop' }));
    const model = new WebLLMModel(engine, 'fake', 4096, 258);
    await expect(embed({ input: 'a' }, model)).rejects.toMatchObject({ status: 400, param: 'model' });
    expect(engine.requests).toHaveLength(0);
    expect(
      refusal(() => checkCapabilities(model.capabilities, validateCompletion({ model: 'm', prompt: 'a' }))),
    ).toBeNull();
  });
});
