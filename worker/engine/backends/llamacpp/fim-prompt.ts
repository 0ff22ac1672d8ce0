/**
 * Fill-in-the-middle prompts as token ids. `/v1/completions`' `suffix`: [BOS] PRE prefix SUF
 * suffix MID. llama-server's `/infill` (repo-level FIM, arXiv 2409.12186), as its 0.7.0 lays it
 * out: [REP]`myproject\n` then per `input_extra` file [SEP]`filename\n`text (or, without a SEP
 * token, a `\n\n--- snippet ---\n\n` marker and the text), [SEP]`filename\n`, then [BOS] PRE
 * prefix prompt SUF suffix MID; the prefix keeps its last 3/4 of a 2,048-token batch, the
 * suffix its first quarter less the prompt and two, the files their last
 * (context - batch - 2 * max_tokens) tokens. Texts are tokenized without special tokens.
 */
import type { InfillLayout } from '#core/domain/generation';

/** The model's FIM tokens; `rep` and `sep` only where the model has them. */
export interface FimTokens {
  pre: number;
  suf: number;
  mid: number;
  rep: number | null;
  sep: number | null;
}

/** What the layout needs from the model: its tokenizer (special tokens not parsed) and its BOS. */
export interface FimModel {
  tokens: FimTokens;
  tokenize(text: string): number[];
  /** The BOS id when the model adds one, else null. */
  bos: number | null;
  contextLength: number;
}

/** llama-server's batch (`-b` 2048), by which it cuts the prefix and suffix. */
const BATCH = 2048;
const SNIPPET = '\n\n--- snippet ---\n\n';

/** The plain layout of `/v1/completions`' `suffix`. */
export function plainFim(model: FimModel, prefix: number[], suffix: string): number[] {
  const { pre, suf, mid } = model.tokens;
  return [...(model.bos === null ? [] : [model.bos]), pre, ...prefix, suf, ...model.tokenize(suffix), mid];
}

/** llama-server's `/infill` layout; `maxTokens` null is its `n_predict` -1. */
export function infillFim(
  model: FimModel,
  prefixText: string,
  suffixText: string,
  infill: InfillLayout,
  maxTokens: number | null,
): number[] {
  const { pre, suf, mid, rep, sep } = model.tokens;
  const extra: number[] = [];
  if (rep !== null) extra.push(rep, ...model.tokenize('myproject\n'));
  for (const file of infill.extra) {
    if (sep !== null) extra.push(sep, ...model.tokenize(`${file.filename}\n`));
    else extra.push(...model.tokenize(SNIPPET));
    extra.push(...model.tokenize(file.text));
  }
  if (sep !== null) extra.push(sep, ...model.tokenize('filename\n'));
  const prompt = model.tokenize(infill.prompt);
  const prefix = model.tokenize(prefixText);
  const suffix = model.tokenize(suffixText);
  const prefixTake = Math.min(prefix.length, 3 * (BATCH / 4));
  const suffixTake = Math.min(suffix.length, Math.max(0, BATCH / 4 - (2 + prompt.length)));
  const extraTake = Math.min(Math.max(0, model.contextLength - BATCH - 2 * (maxTokens ?? -1)), extra.length);
  return [
    ...extra.slice(extra.length - extraTake),
    ...(model.bos === null ? [] : [model.bos]),
    pre,
    ...prefix.slice(prefix.length - prefixTake),
    ...prompt,
    suf,
    ...suffix.slice(0, suffixTake),
    mid,
  ];
}
