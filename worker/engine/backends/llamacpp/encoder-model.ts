/**
 * Encoders: BERT and its kin, as llama.cpp's converter writes bge, MiniLM, nomic-embed and the
 * rerankers built on them. Their attention is not causal (`<arch>.attention.causal` false), so
 * they continue no text: they embed and rerank only (llama-server serves them with `--embedding`
 * or `--reranking`). And a model with learned absolute positions (a `position_embd` table, BERT's)
 * has none past its trained context: a longer input would read past that table, a trap in the
 * engine, so its context stops there (llama-server's default context is the trained one too).
 */
import { archNumber, archValue, type Metadata } from './arch-metadata';

/** The model's attention is not causal: it cannot generate. */
export function isEncoder(metadata: Metadata): boolean {
  return archValue(metadata, 'attention.causal') === false;
}

/**
 * The context a model can take: `requested`, or its trained context where that is shorter and
 * its positions are a learned table (`position_embd.weight`) with a row per position.
 */
export function fitPositions(
  requested: number,
  tensors: readonly { name: string; dims: readonly number[] }[],
  metadata: Metadata,
): number {
  const table = tensors.find((tensor) => tensor.name === 'position_embd.weight');
  if (!table) return requested;
  const rows = Math.min(Number(table.dims[1] ?? 0), archNumber(metadata, 'context_length') ?? Infinity);
  return rows > 0 ? Math.min(requested, rows) : requested;
}
