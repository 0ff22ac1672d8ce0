/** Small numeric helpers of the bench. */

/** The median (upper median for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** A number for the table: fixed digits, '-' when unknown. */
export function fmt(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}
