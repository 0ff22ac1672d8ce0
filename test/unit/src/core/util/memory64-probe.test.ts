/**
 * The memory64 probe that picks the engine's `-m64` variants for a model past wasm32's heap
 * (src/core/util/memory64.ts): a well-formed module whose only 64-bit part is its memory's limits
 * flag, so it validates exactly where memory64 runs.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { memory64Probe } from '../../../../../src/core/util/memory64';

const I64_LIMITS = 0x04;

describe('the memory64 probe', () => {
  it('is a valid module once its memory is a wasm32 one', () => {
    const probe = memory64Probe();
    const at = probe.lastIndexOf(I64_LIMITS);
    expect(at).toBeGreaterThan(8);
    probe[at] = 0x00;
    expect(WebAssembly.validate(probe)).toBe(true);
  });

  it('validates where memory64 is on (in a child Node with the flag where it is off by default: Node 20)', () => {
    if (WebAssembly.validate(memory64Probe())) return;
    const script = `process.stdout.write(String(WebAssembly.validate(new Uint8Array([${memory64Probe().join(',')}]))))`;
    const flagged = spawnSync(process.execPath, ['--experimental-wasm-memory64', '-e', script], { encoding: 'utf8' });
    expect(flagged.stdout).toBe('true');
  });
});
