/**
 * What a page tells its Service Worker about routing: its route table (null: device-only, as
 * without one), the id of the model its in-page engine runs (the `device` target), and its
 * runtime's API key (requests to its routes must carry it, as to its engine).
 */
import type { RouteTable } from './route-table-schema';

export interface RouteInfo {
  table: RouteTable | null;
  device: string;
  apiKey: string | null;
}

/** Whether a table sends anything off the device (a target other than `device`): then a device that fails to load does not fail `ready`. */
export function hasRemoteTarget(table: RouteTable | null): boolean {
  return table !== null && Object.values(table.routes).some((route) => route.targets.some((t) => t !== 'device'));
}
