/**
 * For the llama-style architectures this project tests on (`llama`, `qwen3`), checks the
 * hyper-parameters and every tensor's shape as llama.cpp's loader builds them: heads that
 * divide the embedding and each other, a rope dimension equal to the head size (llama.cpp
 * refuses, or for qwen3 aborts, otherwise), each required tensor present with its exact shape,
 * and no tensor the model does not use. Other architectures get the generic checks only.
 * Mixture-of-experts variants are not checked here.
 */
import { GgufError } from './gguf-error';
import type { GgufEntry, GgufHeader } from './read-gguf-header';

/** Expected shapes by tensor name; `required` ones must be in the file. */
type Layout = Map<string, { dims: number[]; required: boolean }>;

const CHECKED = new Set(['llama', 'qwen3']);

export function checkLlamaLayout(header: GgufHeader, arch: string, vocabSize: number): void {
  if (!CHECKED.has(arch)) return;
  const m = header.metadata;
  const key = (suffix: string): GgufEntry | undefined => m.get(`${arch}.${suffix}`);
  if (Number(key('expert_count')?.value ?? 0) > 0) return;
  if (!key('attention.layer_norm_rms_epsilon'))
    throw new GgufError(`the required key ${arch}.attention.layer_norm_rms_epsilon is missing`);
  const nEmbd = Number(key('embedding_length')?.value);
  const nLayer = Number(key('block_count')?.value);
  const perLayer = (suffix: string, fallback: (layer: number) => number) => (layer: number) => {
    const value = key(suffix)?.value;
    if (value === undefined) return fallback(layer);
    return Number(Array.isArray(value) ? value[layer] : value);
  };
  const nHead = perLayer('attention.head_count', () => 0);
  const nHeadKv = perLayer('attention.head_count_kv', nHead);
  const nFf = perLayer('feed_forward_length', () => 0);
  const head0 = nHead(0);
  if (head0 === 0) throw new GgufError(`${arch}.attention.head_count is 0 or missing`);
  const headK = Number(key('attention.key_length')?.value ?? Math.floor(nEmbd / head0));
  const headV = Number(key('attention.value_length')?.value ?? Math.floor(nEmbd / head0));
  const nRot = Number(key('rope.dimension_count')?.value ?? headK);
  if (nRot !== headK) throw new GgufError(`${arch}.rope.dimension_count is ${nRot}, but the head size is ${headK}`);
  const layout: Layout = new Map();
  const need = (name: string, ...dims: number[]) => layout.set(name, { dims, required: true });
  const may = (name: string, ...dims: number[]) => layout.set(name, { dims, required: false });
  need('token_embd.weight', nEmbd, vocabSize);
  need('output_norm.weight', nEmbd);
  may('output.weight', nEmbd, vocabSize);
  for (const name of ['rope_freqs.weight', 'rope_factors_long.weight', 'rope_factors_short.weight'])
    may(name, Math.floor(nRot / 2));
  for (let i = 0; i < nLayer; i++) {
    const heads = nHead(i);
    const kvHeads = nHeadKv(i);
    if (heads === 0 || kvHeads === 0 || heads % kvHeads !== 0)
      throw new GgufError(
        `layer ${i} has ${heads} attention heads and ${kvHeads} key/value heads, which do not divide`,
      );
    const [q, k, v] = [headK * heads, headK * kvHeads, headV * kvHeads];
    const ff = nFf(i);
    const blk = (name: string) => `blk.${i}.${name}`;
    const fused = header.tensors.some((t) => t.name === blk('attn_qkv.weight'));
    const required: [string, ...number[]][] = [
      ['attn_norm.weight', nEmbd],
      ...(fused
        ? [['attn_qkv.weight', nEmbd, q + k + v] satisfies [string, ...number[]]]
        : [
            ['attn_q.weight', nEmbd, q] satisfies [string, ...number[]],
            ['attn_k.weight', nEmbd, k] satisfies [string, ...number[]],
            ['attn_v.weight', nEmbd, v] satisfies [string, ...number[]],
          ]),
      ['attn_output.weight', q, nEmbd],
      ['ffn_norm.weight', nEmbd],
      ['ffn_gate.weight', nEmbd, ff],
      ['ffn_down.weight', ff, nEmbd],
      ['ffn_up.weight', nEmbd, ff],
    ];
    const optional: [string, ...number[]][] = [
      ['attn_qkv.bias', q + k + v],
      ['attn_q.bias', q],
      ['attn_k.bias', k],
      ['attn_v.bias', v],
    ];
    if (arch === 'qwen3') required.push(['attn_k_norm.weight', headK], ['attn_q_norm.weight', headK]);
    else
      optional.push(['attn_output.bias', nEmbd], ['ffn_gate.bias', ff], ['ffn_down.bias', nEmbd], ['ffn_up.bias', ff]);
    for (const [name, ...dims] of required) need(blk(name), ...dims);
    for (const [name, ...dims] of optional) may(blk(name), ...dims);
  }
  // A reranker's classification head (llama.cpp's LLM_TENSOR_CLS_OUT, `cls.output`): one row per
  // label of `classifier.output_labels` (Qwen3-Reranker: yes, no), else one.
  if (arch === 'qwen3') {
    const labels = key('classifier.output_labels')?.value;
    may('cls.output.weight', nEmbd, Array.isArray(labels) && labels.length > 0 ? labels.length : 1);
  }
  checkAgainst(header, arch, layout);
}

function checkAgainst(header: GgufHeader, arch: string, layout: Layout): void {
  const present = new Map(header.tensors.map((t) => [t.name, t]));
  for (const [name, { dims, required }] of layout) {
    const tensor = present.get(name);
    if (!tensor) {
      if (required) throw new GgufError(`tensor '${name}' is missing (a ${arch} model needs it)`);
      continue;
    }
    if (dims.length > 0 && !sameShape(tensor.dims, dims))
      throw new GgufError(
        `tensor '${name}' has shape [${tensor.dims.join(', ')}], expected [${dims.join(', ')}] from the ${arch} hyper-parameters`,
      );
  }
  for (const name of present.keys())
    if (!layout.has(name))
      throw new GgufError(`tensor '${name}' is not part of a ${arch} model (llama.cpp refuses it)`);
}

/** Equal in ggml's 4-dimension view (trailing 1s do not count). */
function sameShape(actual: readonly number[], expected: readonly number[]): boolean {
  for (let i = 0; i < 4; i++) if ((actual[i] ?? 1) !== (expected[i] ?? 1)) return false;
  return true;
}
