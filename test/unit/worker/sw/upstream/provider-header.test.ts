import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../../../src/core/domain/errors';
import { OPENAI_DIALECT } from '../../../../../worker/sw/dialect/openai-dialect';
import { answerFrom, PROVIDER_HEADER } from '../../../../../worker/sw/upstream/provider-header';

describe('answerFrom', () => {
  it('tags an answer with the target that gave it', async () => {
    const response = await answerFrom('device', async () => new Response('{}'), OPENAI_DIALECT);
    expect(response.headers.get(PROVIDER_HEADER)).toBe('device');
  });

  it("tags an error too, answered in the dialect's JSON with its status", async () => {
    const response = await answerFrom(
      'device',
      () => Promise.reject(new NotFoundError("The model 'x' does not exist.", 'model')),
      OPENAI_DIALECT,
    );
    expect([response.status, response.headers.get(PROVIDER_HEADER)]).toEqual([404, 'device']);
    expect(((await response.json()) as { error: { param: string } }).error.param).toBe('model');
  });
});
