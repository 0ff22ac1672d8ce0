/**
 * How this worker downloads models: the parallel connections the page asked
 * (`startInpage({ downloads })`, `useDownloads`), else `DEFAULT_CONNECTIONS`. Read at each load.
 */
import { DEFAULT_CONNECTIONS, type DownloadSettings } from '#core/domain/downloads';

let requested: DownloadSettings | null = null;

export function setRequestedDownloads(settings: DownloadSettings): void {
  requested = settings;
}

export function downloadConnections(): number {
  return requested?.connections ?? DEFAULT_CONNECTIONS;
}
