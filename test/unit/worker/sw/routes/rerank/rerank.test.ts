import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../../src/core/domain/errors';
import { rerankResponse } from '../../../../../../worker/sw/routes/rerank/rerank-response';
import { validateRerank } from '../../../../../../worker/sw/routes/rerank/validate-rerank';

function rejection(body: unknown): InvalidRequestError {
  try {
    validateRerank(body);
  } catch (error) {
    if (error instanceof InvalidRequestError) return error;
  }
  throw new Error('expected a 400');
}

describe('validateRerank', () => {
  it('reads Jina/Cohere bodies and TEI bodies, as llama-server does', () => {
    expect(validateRerank({ model: 'm', query: 'q', documents: ['a', 'b'], return_documents: true })).toStrictEqual({
      model: 'm',
      query: 'q',
      documents: ['a', 'b'],
      tei: false,
      top_n: 2,
      return_text: false,
    });
    expect(validateRerank({ model: 'm', query: '', texts: ['a'], top_n: 0, return_text: true })).toStrictEqual({
      model: 'm',
      query: '',
      documents: ['a'],
      tei: true,
      top_n: 0,
      return_text: true,
    });
  });

  it("refuses with llama-server's messages, naming the field", () => {
    const cases: Array<[unknown, string, string | null]> = [
      [{ model: 'm', documents: ['a'] }, '"query" must be provided', 'query'],
      [{ model: 'm', query: 5, documents: ['a'] }, '"query" must be a string', 'query'],
      [{ model: 'm', query: 'q', documents: [] }, '"documents" must be a non-empty string array', 'documents'],
      [{ model: 'm', query: 'q', documents: ['a', 3] }, '"documents" must be a non-empty string array', 'documents'],
      [{ model: 'm', query: 'q' }, '"documents" must be a non-empty string array', 'documents'],
      [{ model: 'm', query: 'q', texts: 'a' }, '"documents" must be a non-empty string array', 'texts'],
      [{ query: 'q', documents: ['a'] }, "No model is loaded here: load one, or name it in 'model'.", 'model'],
      [[], 'The request body must be a JSON object.', null],
    ];
    for (const [body, message, param] of cases) {
      const error = rejection(body);
      expect(error.message).toBe(message);
      expect(error.param).toBe(param);
    }
  });

  it('refuses a top_n llama-server fails on (a negative one is a 500 there) or ignores', () => {
    for (const topN of [-1, 1.5, '2']) {
      expect(rejection({ model: 'm', query: 'q', documents: ['a'], top_n: topN }).param).toBe('top_n');
    }
    expect(rejection({ model: 'm', query: 'q', documents: ['a'], return_text: 'yes' }).param).toBe('return_text');
  });
});

describe('rerankResponse', () => {
  const scores = { scores: [0.2, 0.9, 0.2, 0.5], prompt_tokens: 40 };

  it("sorts best first (ties in document order), cuts to top_n, in Jina's shape with usage, Cohere's meta and Together's completion_tokens", () => {
    const body = validateRerank({ model: 'm', query: 'q', documents: ['a', 'b', 'c', 'd'], top_n: 3 });
    expect(rerankResponse(body, scores)).toStrictEqual({
      model: 'm',
      object: 'list',
      usage: { prompt_tokens: 40, completion_tokens: 0, total_tokens: 40 },
      results: [
        { index: 1, relevance_score: 0.9 },
        { index: 3, relevance_score: 0.5 },
        { index: 0, relevance_score: 0.2 },
      ],
      meta: { tokens: { input_tokens: 40, output_tokens: 0 } },
    });
  });

  it('answers TEI bodies with a bare array of `score`s, with texts where asked', () => {
    const body = validateRerank({ model: 'm', query: 'q', texts: ['a', 'b', 'c', 'd'], return_text: true, top_n: 2 });
    expect(rerankResponse(body, scores)).toStrictEqual([
      { index: 1, score: 0.9, text: 'b' },
      { index: 3, score: 0.5, text: 'd' },
    ]);
    const bare = validateRerank({ model: 'm', query: 'q', texts: ['a', 'b', 'c', 'd'] });
    expect(rerankResponse(bare, scores)).toStrictEqual([
      { index: 1, score: 0.9 },
      { index: 3, score: 0.5 },
      { index: 0, score: 0.2 },
      { index: 2, score: 0.2 },
    ]);
  });
});
