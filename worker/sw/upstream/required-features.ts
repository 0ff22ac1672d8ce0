/**
 * What a request needs beyond plain sampling, for `require_parameters`: an upstream that does not
 * declare it (`supports`) is skipped. The in-page engine honours them all.
 */
import type { UpstreamFeature } from '#core/route-table/route-table-schema';

const isTokenIds = (value: unknown): boolean =>
  Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'number' || isTokenIds(item));

export function requiredFeatures(body: Record<string, unknown>): UpstreamFeature[] {
  const needs: UpstreamFeature[] = [];
  const logprobs = body['logprobs'];
  if ((logprobs !== undefined && logprobs !== null && logprobs !== false) || typeof body['top_logprobs'] === 'number')
    needs.push('logprobs');
  if (body['grammar'] !== undefined || body['json_schema'] !== undefined) needs.push('grammar');
  if (isTokenIds(body['prompt'])) needs.push('token_prompt');
  return needs;
}
