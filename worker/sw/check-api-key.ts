/**
 * The runtime's API key, when the page set one: read from the header the route's dialect uses
 * (OpenAI's `Authorization: Bearer`), and a missing or wrong key is a 401, as OpenAI answers it.
 */
import { AuthenticationError } from '#core/domain/errors';
import type { Dialect } from './dialect/dialect';
import { OPENAI_DIALECT } from './dialect/openai-dialect';
import { engineClients } from './engine-clients';
import type { RouteEvent } from './route';

/** Enforces the runtime's API key (when it set one), in the header `dialect` reads it from; a bad key is a 401, as OpenAI answers it. */
export function checkApiKey(request: Request, apiKey: string | null, dialect: Dialect = OPENAI_DIALECT): void {
  if (apiKey === null) return;
  const given = dialect.apiKeyOf(request);
  if (given === undefined) throw new AuthenticationError(dialect.missingKey);
  if (given !== apiKey) throw new AuthenticationError('Incorrect API key provided.');
}

/**
 * Enforces the key of this origin's engines (the first's, as a route without a model reads it),
 * for a route that asks no engine anything (llama-server's control and stream routes).
 */
export async function checkEnginesKey(clients: Clients, event: RouteEvent, dialect: Dialect): Promise<void> {
  const engines = await engineClients(clients, event.clientId);
  checkApiKey(event.request, engines[0]?.apiKey ?? null, dialect);
}
