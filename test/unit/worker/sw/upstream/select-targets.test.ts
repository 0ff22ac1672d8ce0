import { describe, expect, it } from 'vitest';
import { OpenAIError } from '#core/domain/errors';
import { parseRouteTable } from '#core/route-table/parse-route-table';
import { readProvider } from '../../../../../worker/sw/upstream/provider-request';
import { selectTargets } from '../../../../../worker/sw/upstream/select-targets';
import { requiredFeatures } from '../../../../../worker/sw/upstream/required-features';
import { applyParamPolicy } from '../../../../../worker/sw/upstream/param-policy';
import { causeOfStatus } from '../../../../../worker/sw/upstream/target-failure';

const up = (supports: string[] = []) => ({ baseURL: 'http://127.0.0.1:1/v1', model: 'm', supports });
const table = parseRouteTable({
  upstreams: { a: up(), b: up(['logprobs']), c: up() },
  routes: {
    r: { targets: ['device', 'a', 'b'] },
    rr: { targets: ['a', 'device', 'b', 'c'], balance: 'round-robin' },
  },
});
const none = () => false;
const pick = (
  routeId: string,
  provider: unknown = undefined,
  extra: Partial<Parameters<typeof selectTargets>[0]> = {},
) =>
  selectTargets({
    table,
    routeId,
    provider: readProvider(provider, table.routes[routeId]?.targets ?? []),
    needs: [],
    isCooling: none,
    turn: 0,
    ...extra,
  });
const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof OpenAIError) return `${error.status} ${error.code} ${error.param}`;
    throw error;
  }
  return 'no error';
};

describe('selectTargets', () => {
  it('keeps the route order, and rotates only the upstreams with round-robin', () => {
    expect(pick('r')).toEqual(['device', 'a', 'b']);
    expect(pick('rr', undefined, { turn: 0 })).toEqual(['a', 'device', 'b', 'c']);
    expect(pick('rr', undefined, { turn: 1 })).toEqual(['b', 'device', 'c', 'a']);
    expect(pick('rr', undefined, { turn: 2 })).toEqual(['c', 'device', 'a', 'b']);
  });

  it('follows provider: a string, order, only, ignore, allow_fallbacks', () => {
    expect(pick('r', 'b')).toEqual(['b']);
    expect(pick('r', { order: ['b', 'a'] })).toEqual(['b', 'a', 'device']);
    expect(pick('r', { only: ['a', 'device'] })).toEqual(['device', 'a']);
    expect(pick('r', { ignore: ['device'] })).toEqual(['a', 'b']);
    expect(pick('r', { order: ['b'], allow_fallbacks: false })).toEqual(['b']);
  });

  it('is a 400 provider_unknown_provider for a name the route lacks', () => {
    expect(codeOf(() => pick('r', { only: ['zz'] }))).toBe('400 provider_unknown_provider provider.only');
    expect(codeOf(() => pick('r', 'c'))).toBe('400 provider_unknown_provider provider');
    expect(codeOf(() => pick('r', { only: 'a' }))).toBe('400 invalid_value provider');
    expect(codeOf(() => pick('r', { ignore: ['device', 'a', 'b'] }))).toBe('400 provider_no_targets provider');
  });

  it('skips targets that cannot honour the request only with require_parameters', () => {
    const needs = requiredFeatures({ logprobs: 2, prompt: [1, 2] });
    expect(needs).toEqual(['logprobs', 'token_prompt']);
    expect(requiredFeatures({ logprobs: true })).toEqual(['logprobs']);
    expect(pick('r', undefined, { needs: ['logprobs'] })).toEqual(['device', 'a', 'b']);
    expect(pick('r', { ignore: ['device'], require_parameters: true }, { needs: ['logprobs'] })).toEqual(['b']);
    expect(codeOf(() => pick('r', { only: ['a'], require_parameters: true }, { needs: ['logprobs'] }))).toBe(
      '400 provider_requirements_unmet provider',
    );
  });

  it('skips cooling targets unless none other is left', () => {
    expect(pick('r', undefined, { isCooling: (name) => name === 'a' })).toEqual(['device', 'b']);
    expect(pick('r', { only: ['a'] }, { isCooling: (name) => name === 'a' })).toEqual(['a']);
  });
});

describe('the parameter policy', () => {
  const policy = {
    defaults: { temperature: 0, max_tokens: 5 },
    overrides: { seed: 7, model: 'x' },
    deny: ['logit_bias'],
  };
  it('fills defaults, applies overrides, never touches model, and denies with a 400', () => {
    expect(applyParamPolicy({ model: 'r', max_tokens: 9 }, policy)).toEqual({
      model: 'r',
      max_tokens: 9,
      temperature: 0,
      seed: 7,
    });
    expect(codeOf(() => applyParamPolicy({ model: 'r', logit_bias: {} }, policy))).toBe(
      '400 parameter_denied logit_bias',
    );
  });
});

describe('fallback causes', () => {
  it('moves on for 5xx, 429 and configuration errors, not for the request’s own 4xx', () => {
    expect([500, 503, 429, 401, 403, 404, 400, 422].map((status) => causeOfStatus(status, false))).toEqual([
      'server_error',
      'server_error',
      'rate_limited',
      'configuration',
      'configuration',
      'configuration',
      null,
      null,
    ]);
    expect([503, 404, 401, 400].map((status) => causeOfStatus(status, true))).toEqual([
      'server_error',
      'configuration',
      null,
      null,
    ]);
  });
});
