/**
 * `text` with every character a regular expression reads as syntax escaped, so that it matches itself.
 *
 * @example
 * new RegExp(escapeRegExp('a.b')).test('axb') // false
 */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
