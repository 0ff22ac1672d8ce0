/**
 * A WebLLM model folder generated for the tests, in the layout WebLLM reads: mlc-chat-config.json,
 * tokenizer.json, tensor-cache.json and its shards, plus a model library (.wasm). The library is
 * a valid but empty WebAssembly module: no model library can be compiled here (no GPU), so
 * loading must stop at that step with a clean error.
 */
import { mkdir, writeFile } from 'node:fs/promises';

export const WEBLLM_DIR = 'dist/test-models/webllm';
const SHARD_BYTES = 96 * 1024;
const SHARDS = 3;

const EMPTY_WASM = Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/** The files of one build (`q4f16_1` or `q4f32_1`), relative to the served root. */
export function buildFiles(quant: string): string[] {
  const folder = `/test-models/webllm/tiny-${quant}-MLC/`;
  const shards = Array.from({ length: SHARDS }, (_, i) => `${folder}params_shard_${i}.bin`);
  return [
    `${folder}mlc-chat-config.json`,
    `${folder}tensor-cache.json`,
    `${folder}tokenizer.json`,
    `/test-models/webllm/tiny-${quant}.wasm`,
    ...shards,
  ];
}

/** Writes both builds of the tiny model; returns the demo query that loads it on `backend`. */
export async function writeWebLLMFixture(backend: 'webllm' | 'auto'): Promise<string> {
  for (const quant of ['q4f16_1', 'q4f32_1']) {
    const dir = `${WEBLLM_DIR}/tiny-${quant}-MLC`;
    await mkdir(dir, { recursive: true });
    const config = {
      model_type: 'llama',
      quantization: quant,
      vocab_size: 258,
      context_window_size: 512,
      sliding_window_size: -1,
      attention_sink_size: -1,
      prefill_chunk_size: 128,
      temperature: 1,
      top_p: 1,
      repetition_penalty: 1,
      presence_penalty: 0,
      frequency_penalty: 0,
      tokenizer_files: ['tokenizer.json'],
      conv_template: {
        name: 'LM',
        system_template: '{system_message}',
        system_message: '',
        roles: { user: '', assistant: '' },
        seps: [''],
        stop_str: [],
        stop_token_ids: [257],
      },
    };
    await writeFile(`${dir}/mlc-chat-config.json`, JSON.stringify(config));
    const vocab = Object.fromEntries(
      Array.from({ length: 256 }, (_, b) => [`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`, b]),
    );
    await writeFile(
      `${dir}/tokenizer.json`,
      JSON.stringify({ version: '1.0', model: { type: 'BPE', vocab, merges: [], byte_fallback: true } }),
    );
    const records = [];
    for (let i = 0; i < SHARDS; i++) {
      const bytes = new Uint8Array(SHARD_BYTES).map((_, j) => (i * 31 + j) & 0xff);
      await writeFile(`${dir}/params_shard_${i}.bin`, bytes);
      records.push({
        dataPath: `params_shard_${i}.bin`,
        format: 'raw-shard',
        nbytes: SHARD_BYTES,
        records: [
          {
            name: `param_${i}`,
            shape: [SHARD_BYTES / 4],
            dtype: 'float32',
            format: 'raw',
            nbytes: SHARD_BYTES,
            byteOffset: 0,
          },
        ],
      });
    }
    await writeFile(
      `${dir}/tensor-cache.json`,
      JSON.stringify({ metadata: { ParamSize: SHARDS, ParamBytes: SHARDS * SHARD_BYTES }, records }),
    );
    await writeFile(`${WEBLLM_DIR}/tiny-${quant}.wasm`, EMPTY_WASM);
  }
  const query = new URLSearchParams({
    backend,
    id: 'tiny',
    model: '/test-models/webllm/tiny-q4f16_1-MLC/',
    model_lib: '/test-models/webllm/tiny-q4f16_1.wasm',
    f32: '/test-models/webllm/tiny-q4f32_1-MLC/',
    f32_lib: '/test-models/webllm/tiny-q4f32_1.wasm',
  });
  return `/?${query}`;
}
