/**
 * Where a JSON object or array ends: the index just past the bracket that closes the one opening at
 * `start` (strings and their escapes skipped), or -1 where `text` ends first. Used to cut a tool
 * call's JSON out of a template's render (engine) and out of a model's output (SW).
 *
 * @example
 * jsonValueEnd('x {"a": "}"} y', 2) // 12
 */
export function jsonValueEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
  return -1;
}
