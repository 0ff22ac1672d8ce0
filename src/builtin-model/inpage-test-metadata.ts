import { byteVocab } from './byte-vocab';
import type { GgufKv } from './gguf-writer';
import { inpageTestFim, inpageTestSpec } from './inpage-test-spec';

/**
 * GGUF metadata of `inpage-test`: llama hyper-parameters and a GPT-2 byte-level vocabulary
 * (with `fim`, three more control tokens declared as the fill-in-the-middle tokens).
 */
export function inpageTestMetadata(fim = false, chatTemplate: string = inpageTestSpec.chatTemplate): GgufKv[] {
  const s = inpageTestSpec;
  const f = inpageTestFim;
  const vocab = byteVocab(
    fim ? [s.bosToken, s.eosToken, f.pre.text, f.suf.text, f.mid.text] : [s.bosToken, s.eosToken],
  );
  const nVocab = fim ? f.nVocab : s.nVocab;
  if (vocab.tokens.length !== nVocab) throw new Error('vocabulary size mismatch');
  const u32 = (key: string, value: number): GgufKv => ({ key, value: { type: 'uint32', value } });
  const f32 = (key: string, value: number): GgufKv => ({ key, value: { type: 'float32', value } });
  const str = (key: string, value: string): GgufKv => ({ key, value: { type: 'string', value } });
  const bool = (key: string, value: boolean): GgufKv => ({ key, value: { type: 'bool', value } });
  return [
    str('general.architecture', s.architecture),
    str('general.name', s.name),
    u32('general.file_type', 0), // all F32
    u32('llama.context_length', s.contextLength),
    u32('llama.embedding_length', s.nEmbd),
    u32('llama.block_count', s.nLayer),
    u32('llama.feed_forward_length', s.nFf),
    u32('llama.attention.head_count', s.nHead),
    u32('llama.attention.head_count_kv', s.nHeadKv),
    u32('llama.rope.dimension_count', s.headDim),
    f32('llama.rope.freq_base', s.ropeFreqBase),
    f32('llama.attention.layer_norm_rms_epsilon', s.rmsNormEps),
    u32('llama.vocab_size', nVocab),
    str('tokenizer.ggml.model', 'gpt2'),
    str('tokenizer.ggml.pre', 'default'),
    { key: 'tokenizer.ggml.tokens', value: { type: 'array', itemType: 'string', value: vocab.tokens } },
    { key: 'tokenizer.ggml.token_type', value: { type: 'array', itemType: 'int32', value: vocab.tokenTypes } },
    { key: 'tokenizer.ggml.merges', value: { type: 'array', itemType: 'string', value: [] } },
    u32('tokenizer.ggml.bos_token_id', s.bosTokenId),
    u32('tokenizer.ggml.eos_token_id', s.eosTokenId),
    bool('tokenizer.ggml.add_bos_token', false),
    bool('tokenizer.ggml.add_eos_token', false),
    str('tokenizer.chat_template', chatTemplate),
    ...(fim
      ? [
          u32('tokenizer.ggml.fim_pre_token_id', f.pre.id),
          u32('tokenizer.ggml.fim_suf_token_id', f.suf.id),
          u32('tokenizer.ggml.fim_mid_token_id', f.mid.id),
        ]
      : []),
  ];
}
