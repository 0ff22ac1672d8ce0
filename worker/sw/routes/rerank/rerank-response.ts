/**
 * llama-server's rerank answer (server-common.cpp's format_response_rerank): the results sorted
 * by score, best first (ties keep the documents' order), cut to `top_n`. Jina's and Cohere's
 * shape, `{model, object: "list", usage, results: [{index, relevance_score}]}`; with `texts`,
 * TEI's bare `[{index, score}]`, each with its `text` where `return_text` asks. Two additions
 * llama-server lacks, for clients that require them: Cohere's `meta` (its token counts; the AI
 * SDK's Cohere provider refuses an answer without one) and `usage.completion_tokens` (0; its
 * Together provider's).
 */
import type { RerankBody } from './validate-rerank';

export interface RerankScores {
  /** One score per document, in order. */
  scores: number[];
  prompt_tokens: number;
}

export function rerankResponse(body: RerankBody, result: RerankScores): unknown {
  const label = body.tei ? 'score' : 'relevance_score';
  const results = result.scores
    .map((score, index) => ({ index, score }))
    .sort((a, b) => b.score - a.score)
    .slice(0, body.top_n)
    .map(({ index, score }) => ({
      index,
      [label]: score,
      ...(body.tei && body.return_text ? { text: body.documents[index] } : {}),
    }));
  if (body.tei) return results;
  return {
    model: body.model,
    object: 'list',
    usage: { prompt_tokens: result.prompt_tokens, completion_tokens: 0, total_tokens: result.prompt_tokens },
    results,
    meta: { tokens: { input_tokens: result.prompt_tokens, output_tokens: 0 } },
  };
}
