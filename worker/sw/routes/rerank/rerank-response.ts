/**
 * llama-server's rerank answer (server-common.cpp's format_response_rerank): the results sorted
 * by score, best first (ties keep the documents' order), cut to `top_n`. Jina's and Cohere's
 * shape, `{model, object: "list", usage, results: [{index, relevance_score}]}`; with `texts`,
 * TEI's bare `[{index, score}]`, each with its `text` where `return_text` asks.
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
    usage: { prompt_tokens: result.prompt_tokens, total_tokens: result.prompt_tokens },
    results,
  };
}
