import type { GgufFile } from './gguf-reader';

/** Hyper-parameters a llama forward pass needs. */
export interface LlamaHparams {
  readonly nEmbd: number;
  readonly nLayer: number;
  readonly nHead: number;
  readonly nHeadKv: number;
  readonly nFf: number;
  readonly nVocab: number;
  readonly ropeDims: number;
  readonly ropeBase: number;
  readonly eps: number;
}

/** Tensor lookup by llama.cpp name. */
export type TensorLookup = (name: string) => Float32Array;

/** Reads llama hyper-parameters from GGUF metadata. */
export function readLlamaHparams(gguf: GgufFile): LlamaHparams {
  const num = (key: string, fallback?: number): number => {
    const v = gguf.metadata.get(key)?.value;
    if (typeof v === 'number') return v;
    if (fallback !== undefined) return fallback;
    throw new Error(`missing numeric metadata ${key}`);
  };
  const nHead = num('llama.attention.head_count');
  const nEmbd = num('llama.embedding_length');
  return {
    nEmbd,
    nHead,
    nLayer: num('llama.block_count'),
    nHeadKv: num('llama.attention.head_count_kv', nHead),
    nFf: num('llama.feed_forward_length'),
    nVocab: num('llama.vocab_size'),
    ropeDims: num('llama.rope.dimension_count', nEmbd / nHead),
    ropeBase: num('llama.rope.freq_base', 10000),
    eps: num('llama.attention.layer_norm_rms_epsilon'),
  };
}

/** Tensor lookup over a parsed GGUF that throws on a missing name. */
export function ggufTensors(gguf: GgufFile): TensorLookup {
  return (name) => {
    const t = gguf.tensors.get(name);
    if (!t) throw new Error(`missing tensor ${name}`);
    return t.data;
  };
}

/** RMSNorm of x times weight (llama.cpp LLM_NORM_RMS). */
export function rmsNorm(x: Float64Array, weight: Float32Array, eps: number): Float64Array {
  let sumSq = 0;
  for (const v of x) sumSq += v * v;
  const scale = 1 / Math.sqrt(sumSq / x.length + eps);
  return x.map((v, i) => v * scale * (weight[i] ?? Number.NaN));
}

/** y = W x with W stored ggml-style as [nIn (ne0), nOut (ne1)]: row j holds nIn values. */
export function matVec(w: Float32Array, nIn: number, nOut: number, x: Float64Array): Float64Array {
  if (w.length !== nIn * nOut || x.length !== nIn) throw new RangeError('matVec shape mismatch');
  const y = new Float64Array(nOut);
  for (let j = 0; j < nOut; j++) {
    let acc = 0;
    for (let i = 0; i < nIn; i++) acc += (w[j * nIn + i] ?? 0) * (x[i] ?? 0);
    y[j] = acc;
  }
  return y;
}

/** llama.cpp "normal" RoPE in place: pairs (2i, 2i+1) of each head rotate by pos * base^(-2i/ropeDims). */
function rope(x: Float64Array, nHeads: number, headDim: number, hp: LlamaHparams, pos: number): void {
  for (let h = 0; h < nHeads; h++) {
    for (let i = 0; 2 * i < hp.ropeDims; i++) {
      const theta = pos * Math.pow(hp.ropeBase, (-2 * i) / hp.ropeDims);
      const a = h * headDim + 2 * i;
      const x0 = x[a] ?? 0;
      const x1 = x[a + 1] ?? 0;
      x[a] = x0 * Math.cos(theta) - x1 * Math.sin(theta);
      x[a + 1] = x0 * Math.sin(theta) + x1 * Math.cos(theta);
    }
  }
}

/** x += y. */
export function addInPlace(x: Float64Array, y: Float64Array): void {
  for (let i = 0; i < x.length; i++) x[i] = (x[i] ?? 0) + (y[i] ?? 0);
}

/** Causal multi-head attention output (before attn_output) for position `pos`. */
function attend(q: Float64Array, ks: Float64Array[], vs: Float64Array[], pos: number, hp: LlamaHparams): Float64Array {
  const headDim = hp.nEmbd / hp.nHead;
  const out = new Float64Array(hp.nEmbd);
  for (let h = 0; h < hp.nHead; h++) {
    const kvBase = Math.floor(h / (hp.nHead / hp.nHeadKv)) * headDim;
    const scores: number[] = [];
    for (let p = 0; p <= pos; p++) {
      let dot = 0;
      for (let d = 0; d < headDim; d++) dot += (q[h * headDim + d] ?? 0) * (ks[p]?.[kvBase + d] ?? 0);
      scores.push(dot / Math.sqrt(headDim));
    }
    const max = Math.max(...scores);
    const weights = scores.map((s) => Math.exp(s - max));
    const total = weights.reduce((a, b) => a + b, 0);
    weights.forEach((wgt, p) => {
      for (let d = 0; d < headDim; d++)
        out[h * headDim + d] = (out[h * headDim + d] ?? 0) + (wgt / total) * (vs[p]?.[kvBase + d] ?? 0);
    });
  }
  return out;
}

/** Plain llama forward pass; returns the logits at the last position. */
export function llamaForward(tensor: TensorLookup, hp: LlamaHparams, tokens: readonly number[]): Float64Array {
  const { nEmbd, nFf, nVocab } = hp;
  const headDim = nEmbd / hp.nHead;
  const kvDim = headDim * hp.nHeadKv;
  const embd = tensor('token_embd.weight');
  const hidden = tokens.map((t) => Float64Array.from(embd.subarray(t * nEmbd, (t + 1) * nEmbd)));
  for (let l = 0; l < hp.nLayer; l++) {
    const w = (suffix: string): Float32Array => tensor(`blk.${l}.${suffix}.weight`);
    const qs: Float64Array[] = [];
    const ks: Float64Array[] = [];
    const vs: Float64Array[] = [];
    hidden.forEach((x, pos) => {
      const xn = rmsNorm(x, w('attn_norm'), hp.eps);
      const q = matVec(w('attn_q'), nEmbd, nEmbd, xn);
      const k = matVec(w('attn_k'), nEmbd, kvDim, xn);
      rope(q, hp.nHead, headDim, hp, pos);
      rope(k, hp.nHeadKv, headDim, hp, pos);
      qs.push(q);
      ks.push(k);
      vs.push(matVec(w('attn_v'), nEmbd, kvDim, xn));
    });
    hidden.forEach((x, pos) => {
      const q = qs[pos] ?? new Float64Array(nEmbd);
      addInPlace(x, matVec(w('attn_output'), nEmbd, nEmbd, attend(q, ks, vs, pos, hp)));
      const xn = rmsNorm(x, w('ffn_norm'), hp.eps);
      const gate = matVec(w('ffn_gate'), nEmbd, nFf, xn);
      const up = matVec(w('ffn_up'), nEmbd, nFf, xn);
      const act = gate.map((g, i) => (g / (1 + Math.exp(-g))) * (up[i] ?? 0));
      addInPlace(x, matVec(w('ffn_down'), nFf, nEmbd, act));
    });
  }
  const last = hidden[hidden.length - 1];
  if (!last) throw new Error('empty prompt');
  return matVec(tensor('output.weight'), nEmbd, nVocab, rmsNorm(last, tensor('output_norm.weight'), hp.eps));
}
