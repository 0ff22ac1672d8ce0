import { isWireError, OpenAIError, ServiceUnavailableError } from '../core/domain/errors';

/**
 * Sends one real one-token completion through the Service Worker and resolves only when the
 * engine answered it: proof that `/v1/completions` from this page reaches the engine.
 */
export async function probeEndpoint(prefix: string, model: string, apiKey: string | null): Promise<void> {
  const response = await fetch(`${prefix}/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }) },
    body: JSON.stringify({ model, prompt: ' ', max_tokens: 1, temperature: 0 }),
  });
  const body: unknown = await response.json().catch(() => null);
  if (response.ok && typeof body === 'object' && body !== null && Reflect.get(body, 'object') === 'text_completion')
    return;
  const wire = { status: response.status, body };
  if (isWireError(wire)) throw OpenAIError.fromWire(wire);
  throw new ServiceUnavailableError(
    `The endpoint probe got HTTP ${response.status} without an OpenAI answer: is the Service Worker script served?`,
    'endpoint_unreachable',
  );
}
