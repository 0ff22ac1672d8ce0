/**
 * The one rule for text in a request body: every string, object keys included, is well-formed
 * Unicode. A lone UTF-16 surrogate (half of a character) has no UTF-8 encoding, so no engine
 * can see it as sent; the body is refused with a 400 that names the field (see
 * docs/reliability.md, "Every string"). Checked where the SW parses the body (`read-json.ts`),
 * and where JSON text inside a string is parsed in the SW (a schema given as text).
 */
import { InvalidRequestError } from './errors';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A JSON escape of a surrogate (`\uD800`-`\uDFFF`): the only way one reaches the SW's `request.text()`. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Where a lone surrogate sits: the field's path (`messages[0].content`) and whether it is in a key. */
export interface LoneSurrogate {
  path: string;
  inKey: boolean;
}

interface Frame {
  value: unknown;
  parent: Frame | null;
  key: string | number | null;
}

/**
 * The first string of `value` (depth first, in document order) that holds a lone surrogate,
 * or undefined. `source`, the JSON text `value` was parsed from, skips the walk when it holds
 * no surrogate escape. The walk is iterative: any nesting depth JSON.parse accepts is fine.
 */
export function findLoneSurrogate(value: unknown, source?: string): LoneSurrogate | undefined {
  if (source !== undefined && !SURROGATE_ESCAPE.test(source)) return undefined;
  const stack: Frame[] = [{ value, parent: null, key: null }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const here = frame.value;
    if (typeof here === 'string') {
      if (LONE_SURROGATE.test(here)) return { path: pathOf(frame), inKey: false };
    } else if (Array.isArray(here)) {
      for (let i = here.length - 1; i >= 0; i--) stack.push({ value: here[i], parent: frame, key: i });
    } else if (typeof here === 'object' && here !== null) {
      const keys = Object.keys(here);
      const bad = keys.find((key) => LONE_SURROGATE.test(key));
      if (bad !== undefined) return { path: pathOf({ value: null, parent: frame, key: bad }), inKey: true };
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({ value: Reflect.get(here, key), parent: frame, key });
      }
    }
  }
  return undefined;
}

/**
 * Refuses a body holding a lone surrogate: 400 `invalid_unicode`, `param` the field's path.
 * `within`: `value` was parsed from the JSON text of that field; the 400 names it, and the
 * message says where inside the text.
 */
export function checkWellFormed(value: unknown, source?: string, within?: string): void {
  const found = findLoneSurrogate(value, source);
  if (!found) return;
  const path = within ?? found.path;
  const where = path === '' ? 'the request body' : `'${path}'`;
  const inside = within === undefined ? '' : ` (its JSON text, at '${found.path || '#'}')`;
  throw new InvalidRequestError(
    `Invalid ${found.inKey ? 'key in' : 'value for'} ${where}${inside}: the string holds a lone UTF-16 surrogate ` +
      '(half of a character), which has no UTF-8 form. Send well-formed Unicode ' +
      '(String.prototype.toWellFormed() replaces each lone surrogate with U+FFFD).',
    path === '' ? null : path,
    'invalid_unicode',
  );
}

const PLAIN_KEY = /^[A-Za-z_$][\w$]*$/;

/** `a.b[0].c`; a key that is not a plain name is quoted (`properties["x y"]`), a lone surrogate escaped. */
function pathOf(frame: Frame): string {
  const parts: string[] = [];
  for (let at: Frame | null = frame; at?.parent; at = at.parent) {
    const key = at.key;
    if (typeof key === 'number') parts.push(`[${key}]`);
    else if (key !== null && PLAIN_KEY.test(key)) parts.push(at.parent.parent ? `.${key}` : key);
    else if (key !== null) parts.push(`[${JSON.stringify(key)}]`);
  }
  return parts.reverse().join('');
}
