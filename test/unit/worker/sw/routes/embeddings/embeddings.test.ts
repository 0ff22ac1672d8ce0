import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../../src/core/domain/errors';
import {
  embeddingsResponse,
  float32Base64,
  l2Normalize,
} from '../../../../../../worker/sw/routes/embeddings/embeddings-response';
import { validateEmbeddings } from '../../../../../../worker/sw/routes/embeddings/validate-embeddings';

function rejection(body: unknown): InvalidRequestError {
  try {
    validateEmbeddings(body);
  } catch (error) {
    if (error instanceof InvalidRequestError) return error;
  }
  throw new Error('expected a 400');
}

describe('validateEmbeddings', () => {
  it('normalizes every input shape', () => {
    expect(validateEmbeddings({ model: 'm', input: 'a' })).toStrictEqual({
      model: 'm',
      inputs: ['a'],
      encoding_format: 'float',
      user: null,
    });
    expect(validateEmbeddings({ model: 'm', input: ['a', 'b'] }).inputs).toStrictEqual(['a', 'b']);
    expect(validateEmbeddings({ model: 'm', input: [1, 2] }).inputs).toStrictEqual([[1, 2]]);
    expect(
      validateEmbeddings({ model: 'm', input: [[1], [2, 3]], encoding_format: 'base64', user: 'u' }),
    ).toMatchObject({ inputs: [[1], [2, 3]], encoding_format: 'base64', user: 'u' });
  });

  it('rejects bad bodies naming the parameter', () => {
    expect(rejection({ model: 'm' }).param).toBe('input');
    expect(rejection({ input: 'a' }).param).toBe('model');
    expect(rejection({ model: 'm', input: '' }).code).toBe('empty_input');
    expect(rejection({ model: 'm', input: [] }).code).toBe('empty_input');
    expect(rejection({ model: 'm', input: [[1], []] }).code).toBe('empty_input');
    expect(rejection({ model: 'm', input: ['a', 1] }).param).toBe('input');
    expect(rejection({ model: 'm', input: [1.5] }).param).toBe('input');
    expect(rejection({ model: 'm', input: { a: 1 } }).param).toBe('input');
    expect(rejection({ model: 'm', input: 'a', encoding_format: 'int8' }).param).toBe('encoding_format');
    expect(rejection({ model: 'm', input: 'a', dimensions: 256 }).code).toBe('unsupported_parameter');
    expect(rejection({ model: 'm', input: 'a', extra: 1 }).message).toBe(
      'Unrecognized request argument supplied: extra',
    );
  });
});

describe('embeddingsResponse', () => {
  it('formats float and base64 (little-endian float32) embeddings', () => {
    expect(embeddingsResponse('m', [[0.5, -1]], 3, 'float')).toStrictEqual({
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [0.5, -1] }],
      model: 'm',
      usage: { prompt_tokens: 3, total_tokens: 3 },
    });
    const b64 = embeddingsResponse('m', [new Float32Array([1, -2.5]), [0]], 2, 'base64').data.map((d) => d.embedding);
    expect(b64[0]).toBe(Buffer.from(new Float32Array([1, -2.5]).buffer).toString('base64'));
    expect(Array.from(new Float32Array(new Uint8Array(Buffer.from(String(b64[0]), 'base64')).buffer))).toStrictEqual([
      1, -2.5,
    ]);
    expect(float32Base64([1])).toBe('AACAPw==');
  });

  it('l2-normalizes, leaving a zero vector alone', () => {
    expect(l2Normalize([3, 4])).toStrictEqual([0.6, 0.8]);
    expect(l2Normalize([0, 0])).toStrictEqual([0, 0]);
  });
});
