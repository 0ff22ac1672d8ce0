/** The slot file names llama-server takes (`fs_validate_filename`), and the ones it refuses. */
import { describe, expect, it } from 'vitest';
import { isSlotFilename } from '../../../../../src/core/domain/slot-filename';

describe('isSlotFilename', () => {
  it.each(['a', 'slot-0.bin', 'état.bin', '😀', 'a b', '.hidden', 'x'.repeat(255), 'é'.repeat(127)])(
    'takes %s',
    (name) => {
      expect(isSlotFilename(name)).toBe(true);
    },
  );

  it.each([
    '',
    'x'.repeat(256),
    'é'.repeat(128),
    '.',
    '..',
    'a..b',
    '../x',
    'a/b',
    'a\\b',
    'a:b',
    'a*b',
    'a?b',
    'a"b',
    'a<b',
    'a>b',
    'a|b',
    ' a',
    'a ',
    'a.',
    'a\u0000b',
    'a\nb',
    'a\u007fb',
    'a\u0085b',
    'a\uff0eb',
    'a\u2215b',
    'a\u2216b',
    'a\ufffdb',
    'a\ufeffb',
    'a\ud800b',
  ])('refuses %j', (name) => {
    expect(isSlotFilename(name)).toBe(false);
  });
});
