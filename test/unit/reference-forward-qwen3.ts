/**
 * Plain qwen3 forward pass (llama.cpp's qwen3 graph: per-head RMSNorm of q and k before NEOX
 * RoPE, grouped-query attention, SwiGLU FFN, no biases) over parsed F32 tensors, for tests.
 */
import type { GgufFile } from './gguf-reader';
import { addInPlace, matVec, rmsNorm } from './reference-forward';
import type { TensorLookup } from './reference-forward';

/** Hyper-parameters a qwen3 forward pass needs. */
export interface Qwen3Hparams {
  readonly nEmbd: number;
  readonly nLayer: number;
  readonly nHead: number;
  readonly nHeadKv: number;
  readonly headDim: number;
  readonly nFf: number;
  readonly nVocab: number;
  readonly ropeBase: number;
  readonly eps: number;
}

/** Reads qwen3 hyper-parameters from GGUF metadata; nVocab is the token list's length. */
export function readQwen3Hparams(gguf: GgufFile): Qwen3Hparams {
  const num = (key: string): number => {
    const v = gguf.metadata.get(`qwen3.${key}`)?.value;
    if (typeof v !== 'number') throw new Error(`missing numeric metadata qwen3.${key}`);
    return v;
  };
  const tokens = gguf.metadata.get('tokenizer.ggml.tokens')?.value;
  return {
    nEmbd: num('embedding_length'),
    nLayer: num('block_count'),
    nHead: num('attention.head_count'),
    nHeadKv: num('attention.head_count_kv'),
    headDim: num('attention.key_length'),
    nFf: num('feed_forward_length'),
    nVocab: Array.isArray(tokens) ? tokens.length : 0,
    ropeBase: num('rope.freq_base'),
    eps: num('attention.layer_norm_rms_epsilon'),
  };
}

/** Per-head RMSNorm with a shared [headDim] weight, then NEOX RoPE (pairs i, i + headDim/2). */
function normAndRope(
  x: Float64Array,
  nHeads: number,
  weight: Float32Array,
  hp: Qwen3Hparams,
  pos: number,
): Float64Array {
  const d = hp.headDim;
  const out = new Float64Array(x.length);
  for (let h = 0; h < nHeads; h++) {
    const head = rmsNorm(x.subarray(h * d, (h + 1) * d), weight, hp.eps);
    for (let i = 0; i < d / 2; i++) {
      const theta = pos * Math.pow(hp.ropeBase, (-2 * i) / d);
      const x0 = head[i] ?? 0;
      const x1 = head[i + d / 2] ?? 0;
      out[h * d + i] = x0 * Math.cos(theta) - x1 * Math.sin(theta);
      out[h * d + i + d / 2] = x0 * Math.sin(theta) + x1 * Math.cos(theta);
    }
  }
  return out;
}

/** Causal grouped-query attention output (before attn_output) at position `pos`. */
function attend(q: Float64Array, ks: Float64Array[], vs: Float64Array[], pos: number, hp: Qwen3Hparams): Float64Array {
  const d = hp.headDim;
  const out = new Float64Array(hp.nHead * d);
  for (let h = 0; h < hp.nHead; h++) {
    const kvBase = Math.floor(h / (hp.nHead / hp.nHeadKv)) * d;
    const scores: number[] = [];
    for (let p = 0; p <= pos; p++) {
      let dot = 0;
      for (let i = 0; i < d; i++) dot += (q[h * d + i] ?? 0) * (ks[p]?.[kvBase + i] ?? 0);
      scores.push(dot / Math.sqrt(d));
    }
    const max = Math.max(...scores);
    const weights = scores.map((s) => Math.exp(s - max));
    const total = weights.reduce((a, b) => a + b, 0);
    weights.forEach((wgt, p) => {
      for (let i = 0; i < d; i++) out[h * d + i] = (out[h * d + i] ?? 0) + (wgt / total) * (vs[p]?.[kvBase + i] ?? 0);
    });
  }
  return out;
}

/** qwen3 forward pass; returns the logits at the last position. */
export function qwen3Forward(tensor: TensorLookup, hp: Qwen3Hparams, tokens: readonly number[]): Float64Array {
  const { nEmbd, nFf, nVocab } = hp;
  const qDim = hp.nHead * hp.headDim;
  const kvDim = hp.nHeadKv * hp.headDim;
  const embd = tensor('token_embd.weight');
  const hidden = tokens.map((t) => Float64Array.from(embd.subarray(t * nEmbd, (t + 1) * nEmbd)));
  for (let l = 0; l < hp.nLayer; l++) {
    const w = (suffix: string): Float32Array => tensor(`blk.${l}.${suffix}.weight`);
    const qs: Float64Array[] = [];
    const ks: Float64Array[] = [];
    const vs: Float64Array[] = [];
    hidden.forEach((x, pos) => {
      const xn = rmsNorm(x, w('attn_norm'), hp.eps);
      qs.push(normAndRope(matVec(w('attn_q'), nEmbd, qDim, xn), hp.nHead, w('attn_q_norm'), hp, pos));
      ks.push(normAndRope(matVec(w('attn_k'), nEmbd, kvDim, xn), hp.nHeadKv, w('attn_k_norm'), hp, pos));
      vs.push(matVec(w('attn_v'), nEmbd, kvDim, xn));
    });
    hidden.forEach((x, pos) => {
      addInPlace(x, matVec(w('attn_output'), qDim, nEmbd, attend(qs[pos] ?? new Float64Array(qDim), ks, vs, pos, hp)));
      const xn = rmsNorm(x, w('ffn_norm'), hp.eps);
      const gate = matVec(w('ffn_gate'), nEmbd, nFf, xn);
      const up = matVec(w('ffn_up'), nEmbd, nFf, xn);
      addInPlace(
        x,
        matVec(
          w('ffn_down'),
          nFf,
          nEmbd,
          gate.map((g, i) => (g / (1 + Math.exp(-g))) * (up[i] ?? 0)),
        ),
      );
    });
  }
  const last = hidden[hidden.length - 1];
  if (!last) throw new Error('empty prompt');
  return matVec(tensor('output.weight'), nEmbd, nVocab, rmsNorm(last, tensor('output_norm.weight'), hp.eps));
}
