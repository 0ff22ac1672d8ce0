/**
 * GGUF metadata of `inpage-test-qwen3`: qwen3 hyper-parameters and Qwen3's tokenizer, with the
 * keys and special ids llama.cpp's converter writes for Qwen3 (no BOS added; EOS `<|im_end|>`;
 * padding and BOS `<|endoftext|>`; Qwen3's Jinja chat template).
 */
import type { GgufKv } from './gguf-writer';
import type { GgufBpeVocab } from './hf-bpe-vocab';
import { inpageTestQwen3Spec } from './inpage-test-qwen3-spec';

/** Builds the metadata from the model's GGUF vocabulary (see `hfBpeVocab`). */
export function inpageTestQwen3Metadata(vocab: GgufBpeVocab): GgufKv[] {
  const s = inpageTestQwen3Spec;
  if (vocab.tokens.length !== s.nVocab)
    throw new Error(`vocabulary has ${vocab.tokens.length} tokens, expected ${s.nVocab}`);
  if (vocab.eosTokenId !== s.eosTokenId || vocab.padTokenId !== s.padTokenId)
    throw new Error('tokenizer_config.json names other EOS/pad tokens than Qwen3');
  if (vocab.chatTemplate === undefined) throw new Error('tokenizer_config.json has no chat_template');
  const u32 = (key: string, value: number): GgufKv => ({ key, value: { type: 'uint32', value } });
  const f32 = (key: string, value: number): GgufKv => ({ key, value: { type: 'float32', value } });
  const str = (key: string, value: string): GgufKv => ({ key, value: { type: 'string', value } });
  const arch = (key: string): string => `${s.architecture}.${key}`;
  return [
    str('general.architecture', s.architecture),
    str('general.name', s.name),
    u32('general.file_type', 0), // all F32
    u32(arch('context_length'), s.contextLength),
    u32(arch('embedding_length'), s.nEmbd),
    u32(arch('block_count'), s.nLayer),
    u32(arch('feed_forward_length'), s.nFf),
    u32(arch('attention.head_count'), s.nHead),
    u32(arch('attention.head_count_kv'), s.nHeadKv),
    u32(arch('attention.key_length'), s.headDim),
    u32(arch('attention.value_length'), s.headDim),
    f32(arch('rope.freq_base'), s.ropeFreqBase),
    f32(arch('attention.layer_norm_rms_epsilon'), s.rmsNormEps),
    str('tokenizer.ggml.model', 'gpt2'),
    str('tokenizer.ggml.pre', 'qwen2'),
    { key: 'tokenizer.ggml.tokens', value: { type: 'array', itemType: 'string', value: vocab.tokens } },
    { key: 'tokenizer.ggml.token_type', value: { type: 'array', itemType: 'int32', value: vocab.tokenTypes } },
    { key: 'tokenizer.ggml.merges', value: { type: 'array', itemType: 'string', value: vocab.merges } },
    u32('tokenizer.ggml.eos_token_id', s.eosTokenId),
    u32('tokenizer.ggml.padding_token_id', s.padTokenId),
    u32('tokenizer.ggml.bos_token_id', s.bosTokenId),
    { key: 'tokenizer.ggml.add_bos_token', value: { type: 'bool', value: vocab.addBos } },
    str('tokenizer.chat_template', vocab.chatTemplate),
  ];
}
