/**
 * How a file is cut into ranges fetched in parallel: only where its size is known and the
 * server said it takes ranges (`Accept-Ranges: bytes` on the first answer), never into ranges
 * smaller than `MIN_RANGE_BYTES` (a connection's start costs more than it brings there).
 */

/** The smallest range worth its own connection. */
export const MIN_RANGE_BYTES = 8 * 2 ** 20;

export function planRanges(
  size: number | null,
  acceptsRanges: boolean,
  connections: number,
  minRange: number = MIN_RANGE_BYTES,
): Array<[number, number | null]> {
  if (size === null) return [[0, null]];
  const count = acceptsRanges ? Math.max(1, Math.min(connections, Math.floor(size / minRange))) : 1;
  const step = Math.ceil(size / count);
  const ranges: Array<[number, number | null]> = [];
  for (let start = 0; start < size; start += step) ranges.push([start, Math.min(size, start + step)]);
  return ranges.length > 0 ? ranges : [[0, 0]];
}
