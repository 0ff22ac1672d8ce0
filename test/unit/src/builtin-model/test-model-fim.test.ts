import { describe, expect, it } from 'vitest';
import {
  buildInpageTestModel,
  inpageTestFim,
  inpageTestLogprobs,
} from '../../../../src/builtin-model/inpage-test-model';
import { readGgufMetadata } from '../../../../src/gguf/read-gguf-metadata';
import { vocabularyFromMetadata } from '../../../../src/gguf/vocabulary';
import { logSoftmax } from '../../../../src/builtin-model/inpage-test-logits';
import { parseGguf } from '../../../fixtures/gguf-reader';
import { ggufTensors, llamaForward, readLlamaHparams } from '../../../fixtures/reference-forward';

const fim = buildInpageTestModel({ fim: true });

describe('the fill-in-the-middle variant of inpage-test', () => {
  it('declares its three FIM tokens; the plain model has none', async () => {
    const vocab = vocabularyFromMetadata(await readGgufMetadata(new Blob([fim])));
    expect(vocab.size).toBe(261);
    expect(vocab.fim).toEqual({ pre: 258, suf: 259, mid: 260 });
    expect(vocab.fimFiles).toEqual({ rep: null, sep: null });
    expect(vocab.text(260)).toBe('<|fim_middle|>');
    expect(vocab.bytes(259)).toEqual([]);
    expect(vocab.byteLevel).toBe(true);
    expect(vocabularyFromMetadata(await readGgufMetadata(new Blob([buildInpageTestModel()]))).fim).toBeNull();
  });

  it('after the middle token the reference forward pass writes "m"; bytes behave as in the plain model', () => {
    const gguf = parseGguf(fim);
    const hp = readLlamaHparams(gguf);
    const prompt = [inpageTestFim.pre.id, 0x61, 0x62, inpageTestFim.suf.id, 0x79, inpageTestFim.mid.id];
    const logprobs = logSoftmax(llamaForward(ggufTensors(gguf), hp, prompt));
    const best = logprobs.indexOf(Math.max(...logprobs));
    expect(best).toBe(inpageTestFim.afterMid);
    const afterA = logSoftmax(llamaForward(ggufTensors(gguf), hp, [0x61]));
    const plain = inpageTestLogprobs(0x61);
    for (let j = 0; j < 258; j++) expect(Math.abs((afterA[j] ?? 0) - (plain[j] ?? 0))).toBeLessThan(1e-3);
  });

  it('is deterministic and leaves the plain model unchanged', () => {
    const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
    expect(same(buildInpageTestModel({ fim: true }), fim)).toBe(true);
    expect(same(buildInpageTestModel({ fim: false }), buildInpageTestModel())).toBe(true);
    expect(same(fim, buildInpageTestModel())).toBe(false);
  });
});
