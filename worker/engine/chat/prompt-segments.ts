/**
 * A rendered chat prompt as segments: `special` text came from the template itself and may be
 * tokenized with special-token parsing; the rest came from the request and never may.
 */
export interface PromptSegment {
  text: string;
  special: boolean;
}

/** Appends `text` to `segments`, merging with a last segment of the same kind; drops ''. */
export function pushSegment(segments: PromptSegment[], text: string, special: boolean): void {
  if (text === '') return;
  const last = segments.at(-1);
  if (last !== undefined && last.special === special) last.text += text;
  else segments.push({ text, special });
}

/** The prompt as one string (what a template renderer without segments would produce). */
export function promptText(segments: readonly PromptSegment[]): string {
  return segments.map((s) => s.text).join('');
}
