import { describe, expect, it } from 'vitest';
import { StopText } from '../../../../worker/engine/stop-text';

function textOf(pieces: string[], stops: string[], includeStop = false): StopText {
  const text = new StopText(stops, includeStop);
  for (const piece of pieces) text.append(piece);
  return text;
}

describe('StopText.match', () => {
  it('finds a stop spread over several appends, and not before it is complete', () => {
    const text = new StopText(['lo w'], false);
    text.append('he');
    expect(text.match(0)).toBeNull();
    text.append('llo');
    expect(text.match(0)).toBeNull();
    text.append(' w');
    expect(text.match(0)).toStrictEqual({ stop: 'lo w', end: 3 });
    expect(text.length).toBe(7);
  });

  it('returns the earliest-starting of several stops, whatever their order', () => {
    expect(textOf(['hello world'], ['world', 'lo']).match(0)).toStrictEqual({ stop: 'lo', end: 3 });
    expect(textOf(['hello world'], ['lo', 'world']).match(0)).toStrictEqual({ stop: 'lo', end: 3 });
    expect(textOf(['hello world'], ['o w', 'xyz']).match(0)).toStrictEqual({ stop: 'o w', end: 4 });
  });

  it('with includeStop ends after the stop', () => {
    expect(textOf(['hello world'], ['lo'], true).match(0)).toStrictEqual({ stop: 'lo', end: 5 });
    expect(textOf(['ab', 'c\nd'], ['\n'], true).match(0)).toStrictEqual({ stop: '\n', end: 4 });
  });

  it('only looks at or after `from`', () => {
    const text = textOf(['a.b.c'], ['.']);
    expect(text.match(0)).toStrictEqual({ stop: '.', end: 1 });
    expect(text.match(2)).toStrictEqual({ stop: '.', end: 3 });
    expect(text.match(4)).toBeNull();
  });

  it('finds nothing without stops or without a match', () => {
    expect(textOf(['abc'], []).match(0)).toBeNull();
    expect(textOf(['abc'], ['abd']).match(0)).toBeNull();
  });
});

describe('StopText.append(piece, false)', () => {
  it('no stop may start inside inactive text, even one completed by active text', () => {
    const text = new StopText(['ab', 'x'], false);
    text.append('xa', false);
    expect(text.match(0)).toBeNull();
    text.append('b');
    expect(text.match(0)).toBeNull();
    text.append('ab');
    expect(text.match(0)).toStrictEqual({ stop: 'ab', end: 3 });
  });

  it('inactive text is safe to release at once', () => {
    const text = new StopText(['abcdef'], false);
    text.append('abc', false);
    expect(text.safeEnd()).toBe(3);
    text.append('ab');
    expect(text.safeEnd()).toBe(3);
  });
});

describe('StopText.safeEnd', () => {
  it('holds back only a tail that begins some stop', () => {
    expect(textOf(['hello'], ['abc', 'x']).safeEnd()).toBe(5);
    expect(textOf(['hello'], ['lox', 'x']).safeEnd()).toBe(3);
    expect(textOf(['hello'], ['o!', 'llo?']).safeEnd()).toBe(2);
    expect(textOf(['hello'], ['x']).safeEnd()).toBe(5);
    expect(textOf(['hello'], []).safeEnd()).toBe(5);
    expect(textOf(['he'], ['abcdef']).safeEnd()).toBe(2);
    expect(textOf(['he'], ['hello']).safeEnd()).toBe(0);
    // Issue 21: ' barcelona' begins no ' setColor', so none of it waits.
    expect(textOf([' barcelona'], [' setColor']).safeEnd()).toBe(10);
    expect(textOf([' barcelona se'], [' setColor']).safeEnd()).toBe(10);
  });

  it('across appends: a held tail is released once it begins no stop, and a later one is held', () => {
    const text = new StopText(['abc', 'bd'], false);
    const ends = ['ab', 'x', 'ya', 'b', 'd'].map((piece) => (text.append(piece), text.safeEnd()));
    expect(ends).toStrictEqual([0, 3, 4, 4, 5]);
    expect(text.match(0)).toStrictEqual({ stop: 'bd', end: 5 });
  });

  it('finds the prefix among very many stops', () => {
    const stops = Array.from({ length: 50_000 }, (_, i) => `<${i}>`);
    expect(textOf(['abc <4999'], stops).safeEnd()).toBe(4);
    expect(textOf(['abc <4999x'], stops).safeEnd()).toBe(10);
  });

  it('never ends between the two halves of a surrogate pair', () => {
    // 'x😀' is x, high, low: a stop beginning with the low half would hold from between them.
    const text = textOf(['x😀'], ['\udE00y']);
    expect(text.length).toBe(3);
    expect(text.safeEnd()).toBe(1);
    text.append('z');
    expect(text.safeEnd()).toBe(4);
    expect(text.take(text.safeEnd())).toBe('x😀z');
  });

  it('holds back enough that any stop still forming is unreleased', () => {
    const stops = ['<|end|>', '\n\n'];
    const text = new StopText(stops, false);
    let released = '';
    for (const piece of ['Hi', ' there', '<|', 'en', 'd']) {
      text.append(piece);
      released += text.take(text.safeEnd());
    }
    expect(released).toBe('Hi there'); // '<|end' held back
    text.append('|>');
    expect(text.match(0)).toStrictEqual({ stop: '<|end|>', end: 8 });
  });
});

describe('StopText.take', () => {
  it('hands out text in order, never twice', () => {
    const text = textOf(['abcdef'], []);
    expect(text.take(2)).toBe('ab');
    expect(text.take(2)).toBe('');
    expect(text.take(1)).toBe('');
    expect(text.take(5)).toBe('cde');
    text.append('gh');
    expect(text.take(text.length)).toBe('fgh');
    expect(text.take(text.length)).toBe('');
  });
});

describe('StopText with very many stops', () => {
  it('builds with 200,000 stops (no argument spread to overflow the stack)', () => {
    const stops = Array.from({ length: 200_000 }, (_, i) => `<${i}>`);
    const text = new StopText(stops, false);
    text.append('abc <199999> def');
    expect(text.match(0)).toStrictEqual({ stop: '<199999>', end: 4 });
  });
});
