/**
 * Lines up the real render of a template (request strings as they are) with its sentinel render,
 * to segment the real text exactly: literal parts must match in order, and each sentinel must be
 * matched by its value as printed raw, JSON-escaped (inside `tojson`) or trimmed (`| trim`).
 * Returns null when the renders diverge (the template branched on a request string's content).
 */
import { pushSegment, type PromptSegment } from './prompt-segments';

export function alignRender(
  real: string,
  parts: ReadonlyArray<string | number>,
  values: readonly string[],
): PromptSegment[] | null {
  const segments: PromptSegment[] = [];
  let at = 0;
  for (const [i, part] of parts.entries()) {
    if (typeof part === 'string') {
      if (!real.startsWith(part, at)) return null;
      pushSegment(segments, part, true);
      at += part.length;
      continue;
    }
    const value = values[part] ?? '';
    const next = parts[i + 1];
    const fits = (text: string) =>
      real.startsWith(text, at) && (typeof next !== 'string' || real.startsWith(next, at + text.length));
    const printed = printedForms(value).find(fits);
    if (printed === undefined) return null;
    pushSegment(segments, printed, false);
    at += printed.length;
  }
  return at === real.length ? segments : null;
}

/** The ways a template prints a string: raw, JSON-escaped inside quotes, trimmed. */
export function printedForms(value: string): string[] {
  return [...new Set([value, JSON.stringify(value).slice(1, -1), value.trim()])];
}

/**
 * The fallback when the renders diverge: the sentinel render's structure with each sentinel
 * replaced by its value (JSON-escaped when the sentinel sits between quotes, as in `tojson`).
 * Safe (request text is never special), though the template saw sentinels, not the values.
 */
export function substituteRender(parts: ReadonlyArray<string | number>, values: readonly string[]): PromptSegment[] {
  const segments: PromptSegment[] = [];
  parts.forEach((part, i) => {
    if (typeof part === 'string') {
      pushSegment(segments, part, true);
      return;
    }
    const value = values[part] ?? '';
    const before = parts[i - 1];
    const after = parts[i + 1];
    const quoted =
      typeof before === 'string' && before.endsWith('"') && typeof after === 'string' && after.startsWith('"');
    pushSegment(segments, quoted ? JSON.stringify(value).slice(1, -1) : value, false);
  });
  return segments;
}
