/**
 * The names a slot file may have, as llama-server checks them (`fs_validate_filename`): 1 to
 * 255 bytes of UTF-8; no control characters, no path separator or `: * ? " < > |`, nor their
 * look-alikes (fullwidth full stop, division slash, set minus), no U+FFFD or byte-order mark;
 * no leading or trailing space, no trailing dot, no `..` anywhere, not `.`. The Service Worker
 * answers 400 "Invalid filename" for any other; the engine checks again, past the message boundary.
 */

const FORBIDDEN = new Set(
  [...':*?"<>|/\\'].map((char) => char.codePointAt(0)).concat([0xff0e, 0x2215, 0x2216, 0xfffd, 0xfeff]),
);

const utf8 = new TextEncoder();

function forbidden(code: number): boolean {
  return (
    code <= 0x1f ||
    code === 0x7f ||
    (code >= 0x80 && code <= 0x9f) ||
    (code >= 0xd800 && code <= 0xdfff) ||
    FORBIDDEN.has(code)
  );
}

export function isSlotFilename(name: string): boolean {
  if (name.length === 0 || utf8.encode(name).length > 255) return false;
  for (const char of name) if (forbidden(char.codePointAt(0) ?? 0)) return false;
  if (name.startsWith(' ') || name.endsWith(' ') || name.endsWith('.')) return false;
  return !name.includes('..');
}
