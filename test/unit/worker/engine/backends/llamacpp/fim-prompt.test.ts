import { describe, expect, it } from 'vitest';
import { infillFim, plainFim, type FimModel } from '../../../../../../worker/engine/backends/llamacpp/fim-prompt';

// A byte tokenizer: one token per UTF-8 byte; FIM tokens above 255.
const bytes = (text: string) => [...new TextEncoder().encode(text)];
const model = (more: Partial<FimModel> = {}): FimModel => ({
  tokens: { pre: 300, suf: 301, mid: 302, rep: null, sep: null },
  tokenize: bytes,
  bos: null,
  contextLength: 4096,
  ...more,
});

describe('plainFim (/v1/completions suffix)', () => {
  it('is [BOS] PRE prefix SUF suffix MID', () => {
    expect(plainFim(model(), bytes('ab'), 'yz')).toEqual([300, 97, 98, 301, 121, 122, 302]);
    expect(plainFim(model({ bos: 1 }), [5], '')).toEqual([1, 300, 5, 301, 302]);
  });
});

describe("infillFim (llama-server's /infill)", () => {
  it('puts the prompt after the prefix and, without a file separator, a snippet marker before each file', () => {
    const ids = infillFim(model(), 'ab', 'yz', { extra: [{ filename: 'f', text: 'x' }], prompt: 'c' }, 3);
    expect(ids).toEqual([...bytes('\n\n--- snippet ---\n\n'), 120, 300, 97, 98, 99, 301, 121, 122, 302]);
  });

  it('with repo-level tokens: REP myproject, SEP filename per file, SEP filename, then BOS and the FIM part', () => {
    const repo = model({ tokens: { pre: 300, suf: 301, mid: 302, rep: 303, sep: 304 }, bos: 1 });
    const ids = infillFim(repo, 'a', 'z', { extra: [{ filename: 'f.py', text: 'x' }], prompt: '' }, null);
    expect(ids).toEqual([
      303,
      ...bytes('myproject\n'),
      304,
      ...bytes('f.py\n'),
      120,
      304,
      ...bytes('filename\n'),
      1,
      300,
      97,
      301,
      122,
      302,
    ]);
  });

  it("cuts as llama-server does: the prefix's last 1536 tokens, the suffix's first 510 less the prompt, files to what the context leaves", () => {
    const long = 'p'.repeat(2000);
    const ids = infillFim(model(), long, 's'.repeat(600), { extra: [], prompt: 'qq' }, null);
    expect(ids.filter((id) => id === 112)).toHaveLength(1536);
    expect(ids.filter((id) => id === 115)).toHaveLength(512 - 4);
    const small = model({ contextLength: 2048 + 2 * 10 + 3 });
    const cut = infillFim(small, 'a', 'z', { extra: [{ filename: 'f', text: 'wxyz' }], prompt: '' }, 10);
    expect(cut.slice(0, 3)).toEqual([120, 121, 122]);
  });
});
