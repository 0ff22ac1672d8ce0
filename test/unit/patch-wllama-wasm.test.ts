import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { patchWllamaWasm } from '../../scripts/build/patch-wllama-wasm.mjs';

const original = readFileSync(createRequire(import.meta.url).resolve('@wllama/wllama/esm/wasm/wllama.wasm'));

describe('the build patch of wllama.wasm (JSON dumps replace invalid UTF-8)', () => {
  test("changes exactly one instruction of basic_json::dump: the handler argument becomes 'replace'", () => {
    const patched = patchWllamaWasm(original);
    const changed = [...patched.keys()].filter((at) => patched[at] !== original[at]);
    expect(changed).toHaveLength(2);
    const [at] = changed;
    // local.get 4; [local.get 3 -> i32.const 1]; i32.store align=2 offset=648
    expect([...original.subarray(at! - 2, at! + 6)]).toEqual([0x20, 0x04, 0x20, 0x03, 0x36, 0x02, 0x88, 0x05]);
    expect([...patched.subarray(at! - 2, at! + 6)]).toEqual([0x20, 0x04, 0x41, 0x01, 0x36, 0x02, 0x88, 0x05]);
    expect(patched.length).toBe(original.length);
  });

  test('fails loudly when the instruction is not where it was (a wllama upgrade)', () => {
    const moved = patchWllamaWasm(original);
    // Patching twice finds no `local.get 3` store left.
    expect(() => patchWllamaWasm(moved)).toThrow(/expected the handler store once/);
  });
});
