import { describe, expect, it } from 'vitest';
import { readGgufMetadata } from '../../../../src/gguf/read-gguf-metadata';
import { vocabularyFromMetadata } from '../../../../src/gguf/vocabulary';
import { gpt2ByteChars } from '../../../../src/builtin-model/byte-vocab';
import { writeGguf } from '../../../../src/builtin-model/gguf-writer';
import { buildInpageTestModel } from '../../../../src/builtin-model/inpage-test-model';
import type { GgufKv } from '../../../../src/builtin-model/gguf-writer';

const str = (key: string, value: string): GgufKv => ({ key, value: { type: 'string', value } });
const strings = (key: string, value: string[]): GgufKv => ({
  key,
  value: { type: 'array', itemType: 'string', value },
});
const int32s = (key: string, value: number[]): GgufKv => ({ key, value: { type: 'array', itemType: 'int32', value } });

/** A metadata-only GGUF file as a Blob. */
const gguf = (metadata: GgufKv[]): Blob => new Blob([writeGguf({ metadata, tensors: [] })]);
const vocabOf = async (metadata: GgufKv[]) => vocabularyFromMetadata(await readGgufMetadata(gguf(metadata)));

describe('readGgufMetadata + vocabularyFromMetadata on inpage-test', () => {
  it('reads the header: architecture, scalars, strings and arrays', async () => {
    const metadata = await readGgufMetadata(new Blob([buildInpageTestModel()]));
    expect(metadata.get('general.architecture')).toBe('llama');
    expect(metadata.get('general.alignment')).toBe(32);
    expect(metadata.get('llama.context_length')).toBe(4096);
    expect(metadata.get('llama.attention.layer_norm_rms_epsilon')).toBeCloseTo(1e-5, 10);
    expect(metadata.get('tokenizer.ggml.add_bos_token')).toBe(false);
    expect(metadata.get('tokenizer.ggml.merges')).toStrictEqual([]);
    expect(metadata.get('tokenizer.ggml.tokens')).toHaveLength(258);
  });

  it('is a byte-level vocabulary of 258 with two control tokens', async () => {
    const vocab = vocabularyFromMetadata(await readGgufMetadata(new Blob([buildInpageTestModel()])));
    expect(vocab.size).toBe(258);
    expect(vocab.byteLevel).toBe(true);
    for (let b = 0; b < 256; b++) expect(vocab.bytes(b), `byte ${b}`).toStrictEqual([b]);
    expect(vocab.bytes(256)).toStrictEqual([]);
    expect(vocab.bytes(257)).toStrictEqual([]);
    expect(vocab.text(32)).toBe('Ġ');
    expect(vocab.text(10)).toBe('Ċ');
    expect(vocab.text(65)).toBe('A');
    expect(vocab.text(256)).toBe('<s>');
    expect(vocab.text(257)).toBe('</s>');
    expect(vocab.text(999)).toBe('');
  });
});

describe('vocabularyFromMetadata on other tokenizers', () => {
  it('SentencePiece: byte tokens, ▁ as a space, control tokens empty, not byte-level', async () => {
    const tokens = ['<unk>', '<s>', '</s>', '<0x41>', '<0x0A>', '<0xe2>', '▁hello', 'wörld', '▁'];
    const vocab = await vocabOf([
      str('general.architecture', 'llama'),
      str('tokenizer.ggml.model', 'llama'),
      strings('tokenizer.ggml.tokens', tokens),
      int32s('tokenizer.ggml.token_type', [2, 3, 3, 6, 6, 6, 1, 1, 1]),
    ]);
    expect(vocab.size).toBe(9);
    expect(vocab.byteLevel).toBe(false);
    expect(vocab.bytes(1)).toStrictEqual([]);
    expect(vocab.bytes(2)).toStrictEqual([]);
    expect(vocab.bytes(3)).toStrictEqual([0x41]);
    expect(vocab.bytes(4)).toStrictEqual([0x0a]);
    expect(vocab.bytes(5)).toStrictEqual([0xe2]);
    expect(vocab.bytes(6)).toStrictEqual([0x20, 0x68, 0x65, 0x6c, 0x6c, 0x6f]);
    expect(vocab.bytes(7)).toStrictEqual([0x77, 0xc3, 0xb6, 0x72, 0x6c, 0x64]);
    expect(vocab.bytes(8)).toStrictEqual([0x20]);
    expect(vocab.text(6)).toBe('▁hello');
  });

  it('gpt2 with merges: decodes through the byte table but is not byte-level', async () => {
    const tokens = [...gpt2ByteChars(), 'Ġhe', 'llo', 'ĠwÃ¶', '<|endoftext|>'];
    const types = tokens.map((_, id) => (id === tokens.length - 1 ? 3 : 1));
    const vocab = await vocabOf([
      str('tokenizer.ggml.model', 'gpt2'),
      strings('tokenizer.ggml.tokens', tokens),
      int32s('tokenizer.ggml.token_type', types),
      strings('tokenizer.ggml.merges', ['Ġ h', 'Ġh e', 'l l', 'll o']),
    ]);
    expect(vocab.size).toBe(260);
    expect(vocab.byteLevel).toBe(false);
    expect(vocab.bytes(256)).toStrictEqual([0x20, 0x68, 0x65]);
    expect(vocab.bytes(257)).toStrictEqual([0x6c, 0x6c, 0x6f]);
    expect(new TextDecoder().decode(new Uint8Array(vocab.bytes(258)))).toBe(' wö');
    expect(vocab.bytes(259)).toStrictEqual([]);
    expect(vocab.bytes(10)).toStrictEqual([10]);
  });

  it('gpt2 is byte-level only if the first 256 tokens are the bytes in order', async () => {
    const chars = gpt2ByteChars();
    const swapped = [chars[1] ?? '', chars[0] ?? '', ...chars.slice(2)];
    expect(
      (await vocabOf([str('tokenizer.ggml.model', 'gpt2'), strings('tokenizer.ggml.tokens', chars)])).byteLevel,
    ).toBe(true);
    expect(
      (await vocabOf([str('tokenizer.ggml.model', 'gpt2'), strings('tokenizer.ggml.tokens', swapped)])).byteLevel,
    ).toBe(false);
  });

  // BUG (src/gguf/vocabulary.ts byteLevel): `texts.slice(0, 256).every(...)` is vacuously true for
  // the missing ids, so a gpt2 vocabulary of fewer than 256 tokens claims to be byte-level.
  it('a gpt2 vocabulary without all 256 byte tokens is not byte-level', async () => {
    const chars = gpt2ByteChars().slice(0, 200);
    expect(
      (await vocabOf([str('tokenizer.ggml.model', 'gpt2'), strings('tokenizer.ggml.tokens', chars)])).byteLevel,
    ).toBe(false);
  });

  it('needs tokenizer.ggml.tokens', async () => {
    await expect(vocabOf([str('tokenizer.ggml.model', 'gpt2')])).rejects.toThrow(/tokenizer\.ggml\.tokens/);
  });
});

describe('readGgufMetadata errors', () => {
  it('rejects a bad magic', async () => {
    const bytes = buildInpageTestModel().slice(0, 4096);
    bytes[0] = 0x47 ^ 0xff;
    await expect(readGgufMetadata(new Blob([bytes]))).rejects.toThrow(/magic/);
    await expect(
      readGgufMetadata(new Blob([new TextEncoder().encode('GGML').buffer, new Uint8Array(60)])),
    ).rejects.toThrow(/magic/);
  });

  it('rejects a version below 2', async () => {
    const bytes = writeGguf({ metadata: [], tensors: [] });
    new DataView(bytes.buffer).setUint32(4, 1, true);
    await expect(readGgufMetadata(new Blob([bytes]))).rejects.toThrow(/version 1/);
  });

  it.each([0, 10, 23, 40, 1000])('rejects a file truncated to %i bytes', async (size) => {
    const whole = gguf([str('general.architecture', 'llama'), strings('tokenizer.ggml.tokens', gpt2ByteChars())]);
    await expect(readGgufMetadata(whole.slice(0, size))).rejects.toThrow(/truncated/);
  });

  it('reads a header larger than its 1 MB read chunk', async () => {
    const tokens = Array.from({ length: 60_000 }, (_, i) => `token-${i}-${'x'.repeat(i % 13)}`);
    const metadata = await readGgufMetadata(
      gguf([strings('tokenizer.ggml.tokens', tokens), str('general.name', 'after')]),
    );
    expect(metadata.get('tokenizer.ggml.tokens')).toStrictEqual(tokens);
    expect(metadata.get('general.name')).toBe('after');
  });
});
