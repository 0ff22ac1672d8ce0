/**
 * How models are downloaded (`startInpage({ downloads })`): `connections` is how many ranges of
 * a file (and parts of a split model) are fetched at once, where the server takes ranges; 1
 * fetches one file at a time, in one answer. Bad values are a 400 naming `downloads.connections`.
 */
import { InvalidRequestError } from './errors';

export interface DownloadSettings {
  connections?: number;
}

export const DEFAULT_CONNECTIONS = 4;
export const MAX_CONNECTIONS = 16;

export function readDownloads(value: unknown): DownloadSettings {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null)
    throw new InvalidRequestError("'downloads' must be an object ({ connections }).", 'downloads', 'invalid_type');
  const connections: unknown = Reflect.get(value, 'connections');
  if (connections === undefined) return {};
  if (
    typeof connections !== 'number' ||
    !Number.isInteger(connections) ||
    connections < 1 ||
    connections > MAX_CONNECTIONS
  )
    throw new InvalidRequestError(
      `'downloads.connections' must be an integer from 1 to ${MAX_CONNECTIONS}, got ${JSON.stringify(connections)}.`,
      'downloads.connections',
      'invalid_value',
    );
  return { connections };
}
