/** Types for patch-wllama-wasm.mjs (imported by vite.config.ts). */
import type { Plugin } from 'vite';

export function patchWllamaWasm(source: Uint8Array): Uint8Array;
export function patchedWllamaWasmPath(): string;
export function patchedWllamaWasm(): Plugin;
