/**
 * Validates a rerank body as llama-server reads it: `query` (a string), `documents` (Jina's and
 * Cohere's name) or `texts` (Hugging Face TEI's, which also picks TEI's answer), a non-empty
 * array of strings; `top_n` (an integer >= 0, default: every document); `return_text` (TEI: each
 * result carries its text); `model` (filled in with the model loaded here when left out).
 * llama-server's messages for the first two; other keys are ignored, as there (Jina's
 * `return_documents`, for one).
 */
import { InvalidRequestError } from '#core/domain/errors';
import { isRecord } from '#core/util/is-record';
import { typeError } from '../../conversation/validate-chat-tools';

export interface RerankBody {
  model: string;
  query: string;
  documents: string[];
  /** The body named its documents `texts`: the answer is TEI's bare array. */
  tei: boolean;
  /** How many of the best results to return. */
  top_n: number;
  return_text: boolean;
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

export function validateRerank(body: unknown): RerankBody {
  if (!isRecord(body)) throw new InvalidRequestError('The request body must be a JSON object.', null, 'invalid_json');
  const { model } = body;
  if (typeof model !== 'string' || model === '')
    throw new InvalidRequestError("No model is loaded here: load one, or name it in 'model'.", 'model');
  if (body.query === undefined) throw new InvalidRequestError('"query" must be provided', 'query');
  if (typeof body.query !== 'string') throw new InvalidRequestError('"query" must be a string', 'query');
  const tei = body.texts !== undefined;
  const documents = body.documents ?? body.texts;
  if (!isStrings(documents) || documents.length === 0)
    throw new InvalidRequestError(
      '"documents" must be a non-empty string array',
      body.documents === undefined && tei ? 'texts' : 'documents',
    );
  const topN = body.top_n ?? documents.length;
  if (typeof topN !== 'number' || !Number.isInteger(topN) || topN < 0)
    throw typeError('top_n', 'an integer >= 0', topN);
  const returnText = body.return_text ?? false;
  if (typeof returnText !== 'boolean') throw typeError('return_text', 'a boolean', returnText);
  return { model, query: body.query, documents, tei, top_n: topN, return_text: returnText };
}
