// The files the engine's wasm is built from in this repository (the glue and the build's own
// scripts and patches), with their sha256: the manifest records them, and a unit test fails
// when one changed after the manifest was written (the committed wasm is then stale), or when
// its outputs were not all built from the same inputs (buildDigest).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const FOLDERS = ['native', 'native/kernel-check', 'scripts/chroot', 'scripts/engine', 'scripts/engine/patches'];
const BUILT_FROM = /\.(c|cpp|h|sh|patch|js|mjs)$/;

export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** `{ 'native/engine.h': '<sha256>', ... }`, sorted by path. */
export function engineInputs(repo) {
  const inputs = {};
  for (const folder of FOLDERS) {
    for (const name of readdirSync(join(repo, folder)).sort()) {
      if (BUILT_FROM.test(name)) inputs[`${folder}/${name}`] = sha256(readFileSync(join(repo, folder, name)));
    }
  }
  return inputs;
}

/** The sha256 of what a build was made from: the manifest's sources, toolchain, variants and inputs. */
export function buildDigest({ llamaCpp, dawn, toolchain, variants, inputs }) {
  return sha256(JSON.stringify({ llamaCpp, dawn, toolchain, variants, inputs }));
}
