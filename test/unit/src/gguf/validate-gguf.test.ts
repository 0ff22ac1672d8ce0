/** The GGUF validator's messages, one per check, on targeted edits of the `inpage-test` model. */
import { describe, expect, it } from 'vitest';
import { buildInpageTestModel } from '../../../../src/builtin-model/inpage-test-model';
import { validateGguf } from '../../../../src/gguf/validate-gguf';
import { mapGguf } from '../../../fixtures/gguf-layout';
import { buildInpageTestRerankModel } from '../../../fixtures/inpage-test-rerank';

const base = buildInpageTestModel();
const layout = mapGguf(base);
const kv = (key: string) => {
  const entry = layout.kvs.find((candidate) => candidate.key === key);
  if (!entry) throw new Error(`no key ${key}`);
  return entry;
};
const tensor = (name: string) => {
  const entry = layout.tensors.find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`no tensor ${name}`);
  return entry;
};

/** The model with `edit` applied to a copy of its bytes (via a DataView). */
function edited(edit: (view: DataView, bytes: Uint8Array) => void): Blob {
  const bytes = base.slice();
  edit(new DataView(bytes.buffer), bytes);
  return new Blob([bytes]);
}
const refused = (blob: Blob) => expect(validateGguf(blob)).rejects;

/** A Blob that counts the bytes read from it. */
class CountingBlob extends Blob {
  read = 0;
  override slice(start?: number, end?: number): Blob {
    const part = super.slice(start, end);
    this.read += part.size;
    return part;
  }
}

describe('validateGguf', () => {
  it('accepts the test model, reading only its header', async () => {
    const blob = new CountingBlob([base]);
    const { architecture, header } = await validateGguf(blob);
    expect(architecture).toBe('llama');
    expect(header.tensors).toHaveLength(21);
    expect(blob.read).toBeLessThan(2 ** 20 + 1024);
    expect(blob.size).toBeGreaterThan(5 * 2 ** 20);
  });

  it('names an HTML page, a JSON body and a wrong magic', async () => {
    await refused(new Blob(['<!DOCTYPE html><html><body>Not found</body></html>'])).toThrow(
      /not a GGUF file \(bad magic\): it looks like an HTML page/,
    );
    await refused(new Blob(['{"error":"nope"}'])).toThrow(/looks like JSON/);
    await refused(new Blob(['GGML and more'])).toThrow(/does not start with the GGUF magic \(it starts with 'GGML'\)/);
    await refused(new Blob([])).toThrow(/the file is empty/);
  });

  it('refuses versions other than 2 and 3, and absurd counts', async () => {
    await refused(edited((v) => v.setUint32(4, 1, true))).toThrow('unsupported GGUF version 1');
    await refused(edited((v) => v.setUint32(4, 0x03000000, true))).toThrow(/big-endian or corrupt/);
    await refused(edited((v) => v.setBigUint64(8, 2n ** 40n, true))).toThrow(
      /the header claims 1099511627776 tensors, more than a file of \d+ bytes can hold/,
    );
    await refused(edited((v) => v.setBigInt64(16, -1n, true))).toThrow(/negative number of metadata keys/);
  });

  it('refuses lengths past the end of the file and unknown value types', async () => {
    await refused(edited((v) => v.setBigUint64(kv('tokenizer.ggml.tokens').countAt ?? 0, 10n ** 6n, true))).toThrow(
      /the GGUF header is truncated: the 1000000 items of 'tokenizer.ggml.tokens' runs past the end of the file/,
    );
    await refused(edited((v) => v.setBigUint64(kv('general.name').valueAt, 2n ** 40n, true))).toThrow(
      /the string 'general.name' is 1099511627776 bytes long/,
    );
    await refused(edited((v) => v.setUint32(kv('general.name').typeAt, 13, true))).toThrow(
      /'general.name' has an unknown value type \(13\)/,
    );
    await refused(edited((v) => v.setUint32(kv('llama.block_count').typeAt, 5, true))).toThrow(
      'llama.block_count must be a uint32, it is a int32',
    );
  });

  it('refuses bad tensor infos', async () => {
    const q = tensor('blk.0.attn_q.weight');
    await refused(edited((v) => v.setUint32(q.nDimsAt, 5, true))).toThrow(
      "tensor 'blk.0.attn_q.weight' has 5 dimensions (at most 4)",
    );
    await refused(edited((v) => v.setBigUint64(q.dimsAt[0] ?? 0, 0n, true))).toThrow(/dimension 0 of 0/);
    await refused(edited((v) => v.setBigUint64(q.dimsAt[0] ?? 0, 2n ** 62n, true))).toThrow(
      /more elements than llama.cpp can count/,
    );
    await refused(edited((v) => v.setBigUint64(q.dimsAt[0] ?? 0, 2n ** 50n, true))).toThrow(
      /^tensor 'blk.0.attn_q.weight' extends past the end of the file/,
    );
    await refused(edited((v) => v.setUint32(q.typeAt, 4, true))).toThrow('has an unknown tensor type (4)');
    await refused(edited((v) => v.setUint32(tensor('blk.0.attn_norm.weight').typeAt, 12, true))).toThrow(
      "tensor 'blk.0.attn_norm.weight' is Q4_K with 320 values per row, not a multiple of its block size 256",
    );
    await refused(
      edited((_, bytes) => bytes.set(new TextEncoder().encode('blk.0.attn_k.weight'), q.nameAt + 8)),
    ).toThrow("tensor 'blk.0.attn_k.weight' appears twice");
  });

  it('refuses offsets that are misaligned, out of order or past the end', async () => {
    const q = tensor('blk.0.attn_q.weight');
    await refused(edited((v) => v.setBigUint64(q.offsetAt, BigInt(q.offset + 4), true))).toThrow(
      `tensor 'blk.0.attn_q.weight' is at offset ${q.offset + 4}, not a multiple of the file's alignment (32)`,
    );
    await refused(edited((v) => v.setBigUint64(q.offsetAt, BigInt(q.offset + 32), true))).toThrow(
      /is at offset \d+ of the data section, expected \d+/,
    );
    await refused(new Blob([base.subarray(0, base.length - 100)])).toThrow(
      /^tensor 'output.weight' extends past the end of the file/,
    );
    await refused(edited((v) => v.setUint32(kv('general.alignment').valueAt, 3, true))).toThrow(
      'general.alignment 3 is not a power of two',
    );
  });

  it('refuses a model llama.cpp cannot build', async () => {
    await refused(edited((_, bytes) => bytes.set([0x5f], kv('general.architecture').keyAt + 8 + 19))).toThrow(
      'the required key general.architecture is missing',
    );
    await refused(edited((v) => v.setUint32(kv('llama.block_count').valueAt, 1000, true))).toThrow(
      'llama.block_count is 1000 (llama.cpp takes 1 to 512 layers)',
    );
    await refused(edited((v) => v.setUint32(kv('llama.attention.head_count').valueAt, 4, true))).toThrow(
      'llama.rope.dimension_count is 64, but the head size is 80',
    );
    await refused(edited((v) => v.setUint32(kv('llama.feed_forward_length').valueAt, 512, true))).toThrow(
      "tensor 'blk.0.ffn_gate.weight' has shape [320, 256], expected [320, 512] from the llama hyper-parameters",
    );
    await refused(edited((v) => v.setFloat32(kv('llama.attention.layer_norm_rms_epsilon').valueAt, NaN, true))).toThrow(
      /layer_norm_rms_epsilon is NaN/,
    );
  });

  it('refuses a vocabulary llama.cpp aborts on or that does not match the embeddings', async () => {
    // Token 0x62's text ('b', one byte) made 'a', token 0x61's.
    const view = new DataView(base.buffer);
    let at = kv('tokenizer.ggml.tokens').valueAt;
    for (let id = 0; id < 0x62; id++) at += 8 + Number(view.getBigUint64(at, true));
    await refused(edited((_, bytes) => bytes.set([0x61], at + 8))).toThrow(
      'tokens 97 and 98 of tokenizer.ggml.tokens are the same text ("a")',
    );
    await refused(edited((v) => v.setBigUint64(tensor('output.weight').dimsAt[1] ?? 0, 257n, true))).toThrow(
      /tensor 'output.weight'/,
    );
  });

  it("accepts a reranker's classification head (cls.output, a row per label), and only of that shape", async () => {
    const reranker = buildInpageTestRerankModel();
    const { architecture, header } = await validateGguf(new Blob([reranker]));
    expect(architecture).toBe('qwen3');
    expect(header.tensors.find((t) => t.name === 'cls.output.weight')?.dims).toStrictEqual([64, 2]);
    const head = mapGguf(reranker).tensors.find((t) => t.name === 'cls.output.weight');
    const bytes = reranker.slice();
    new DataView(bytes.buffer).setBigUint64(head?.dimsAt[1] ?? 0, 1n, true);
    await refused(new Blob([bytes])).toThrow(
      "tensor 'cls.output.weight' has shape [64, 1], expected [64, 2] from the qwen3 hyper-parameters",
    );
  });
});
