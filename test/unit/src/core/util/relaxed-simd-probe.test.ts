/**
 * The relaxed-SIMD probe that picks the engine variant (src/core/util/relaxed-simd.ts): a well-formed module whose only relaxed part is the instruction the relaxed
 * kernels use, so it validates exactly where relaxed SIMD runs.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { relaxedSimdProbe } from '../../../../../src/core/util/relaxed-simd';

const RELAXED_DOT = [0xfd, 0x92, 0x02];
const I32X4_DOT_I16X8_S = [0xfd, 0xba, 0x01];

function withOp(op: number[]): Uint8Array<ArrayBuffer> {
  const probe = relaxedSimdProbe();
  const at = probe.findIndex((_, i) => RELAXED_DOT.every((byte, k) => probe[i + k] === byte));
  expect(at).toBeGreaterThan(0);
  probe.set(op, at);
  return probe;
}

describe('the relaxed-SIMD probe', () => {
  it('is a valid module once its relaxed dot is a plain SIMD128 one', () => {
    expect(WebAssembly.validate(withOp(I32X4_DOT_I16X8_S))).toBe(true);
  });

  it('validates where relaxed SIMD is on (in a child Node with the flag where it is off by default: Node 20)', () => {
    if (WebAssembly.validate(relaxedSimdProbe())) return;
    const script = `process.stdout.write(String(WebAssembly.validate(new Uint8Array([${relaxedSimdProbe().join(',')}]))))`;
    const flagged = spawnSync(process.execPath, ['--experimental-wasm-relaxed-simd', '-e', script], {
      encoding: 'utf8',
    });
    expect(flagged.stdout).toBe('true');
  });
});
