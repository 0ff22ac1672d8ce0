/**
 * Whether this browser runs WebAssembly memory64, the feature the engine's `-m64` variants need
 * (a heap past 4 GiB, for models too large for wasm32). Asked by validating a module of one
 * 64-bit memory: engines without memory64 reject its limits flag (0x04).
 */

const PROBE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // magic, version 1
  ...[0x05, 0x03, 0x01, 0x04, 0x01], // memories: one, i64, at least one page
]);

let answer: boolean | undefined;

/** True where memory64 validates (asked once). */
export function hasMemory64(): boolean {
  answer ??= WebAssembly.validate(PROBE);
  return answer;
}

/** The probe's bytes, for the test that checks it against a wasm32 memory. */
export const memory64Probe = (): Uint8Array<ArrayBuffer> => PROBE.slice();
