import { describe, expect, it } from 'vitest';
import { ggufExtent } from '../../../../../../src/gguf/gguf-extent';
import { buildInpageTestModel } from '../../../../../../src/builtin-model/inpage-test-model';
import {
  memoryLimit,
  MAX_MODEL_BYTES,
  MAX_MODEL_BYTES_MEMORY64,
} from '../../../../../../worker/engine/backends/llamacpp/memory-limit';
import { SizeCheck } from '../../../../../../worker/engine/backends/llamacpp/size-check';
import { hugeGgufHeader } from '../../../../../fixtures/huge-gguf-header';

describe('ggufExtent', () => {
  it("measures the test model as its file's length, from its header alone", () => {
    const file = buildInpageTestModel();
    const extent = ggufExtent(file);
    expect(typeof extent).toBe('number');
    expect(extent).toBeLessThanOrEqual(file.length);
    expect(extent).toBeGreaterThan(file.length * 0.9);
  });

  it('asks for more while the header is cut short, and says invalid for what is not GGUF', () => {
    const file = buildInpageTestModel();
    expect(ggufExtent(file.subarray(0, 100))).toBe('more');
    expect(ggufExtent(new TextEncoder().encode('<!doctype html><html>not a model</html>'))).toBe('invalid');
  });

  it('reads a header that claims 66 GiB as 66 GiB, whatever follows', () => {
    const offset = 66 * 2 ** 30;
    const header = hugeGgufHeader(offset);
    expect(ggufExtent(header)).toBe(header.length + offset + 4096);
  });
});

describe('memoryLimit and SizeCheck', () => {
  it("takes the smaller of the engine's heap and the device's memory, saying which", () => {
    expect(memoryLimit({}, false).bytes).toBe(MAX_MODEL_BYTES);
    expect(memoryLimit({}, true).bytes).toBe(MAX_MODEL_BYTES_MEMORY64);
    expect(memoryLimit({}, true).why).toContain('memory64');
    const small = memoryLimit({ deviceMemory: 2, jsHeapSizeLimit: 4 * 2 ** 30 }, true);
    expect(small.bytes).toBe(2 * 2 ** 30);
    expect(small.why).toContain('2 GB');
  });

  it('does not bound by navigator.deviceMemory at its ceiling (8: the device may have any more)', () => {
    expect(memoryLimit({ deviceMemory: 8 }, true).bytes).toBe(MAX_MODEL_BYTES_MEMORY64);
    expect(memoryLimit({ deviceMemory: 4 }, true).bytes).toBe(4 * 2 ** 30);
  });

  it('refuses by Content-Length, by the header once it arrived, or by the bytes so far, with both numbers', () => {
    const limit = { bytes: 1000, why: 'a test bound' };
    expect(() => new SizeCheck('m', limit).declared(2000)).toThrow(
      /2000 bytes, from its Content-Length.*1000 bytes: a test bound/,
    );
    expect(() => new SizeCheck('m', limit).declared(0)).not.toThrow();
    const byHeader = new SizeCheck('m', { bytes: 2 ** 30, why: 'x' });
    const header = hugeGgufHeader(66 * 2 ** 30);
    const padded = new Uint8Array(64 * 1024);
    padded.set(header);
    expect(() => byHeader.add(padded, padded.length)).toThrow(/from its GGUF header/);
    expect(() => new SizeCheck('m', limit).add(new Uint8Array(1001), 1001)).toThrow(/downloaded so far/);
  });
});
