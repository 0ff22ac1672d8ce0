/**
 * Replaces every request string the template may print with a unique sentinel
 * (`\uE000<nonce>_<k>\uE001`: private-use marks, digits only, so case filters, trim and tojson
 * leave it intact), and remembers each sentinel's original text.
 */
const OPEN = '\uE000';
const CLOSE = '\uE001';

export class SentinelTable {
  readonly values: string[] = [];
  readonly nonce: string;

  constructor(avoid: string) {
    let nonce = randomDigits();
    while (avoid.includes(nonce)) nonce = randomDigits();
    this.nonce = nonce;
  }

  /** The sentinel standing for `text` ('' stays '': it holds no tokens, and templates test it for truth). */
  wrap(text: string): string {
    if (text === '') return '';
    this.values.push(text);
    return `${OPEN}${this.nonce}_${this.values.length - 1}${CLOSE}`;
  }

  /** Splits rendered text into literal strings and sentinel indices, in order. */
  split(rendered: string): Array<string | number> {
    const pattern = new RegExp(`${OPEN}${this.nonce}_(\\d+)${CLOSE}`, 'g');
    const parts: Array<string | number> = [];
    let at = 0;
    for (const match of rendered.matchAll(pattern)) {
      parts.push(rendered.slice(at, match.index), Number(match[1]));
      at = match.index + match[0].length;
    }
    parts.push(rendered.slice(at));
    return parts.filter((p) => p !== '');
  }

  /** True when `text` still holds a piece of a sentinel (the template cut or altered one). */
  leaks(text: string): boolean {
    return text.includes(OPEN) || text.includes(CLOSE) || text.includes(this.nonce);
  }
}

function randomDigits(): string {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return Array.from(words, (w) => w.toString().padStart(10, '0')).join('');
}
