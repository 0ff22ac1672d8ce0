/**
 * A model split by llama.cpp's own `llama-gguf-split` (Debian sid's llama.cpp-tools-extra,
 * installed into the llama-server chroot the first time it is asked for), as the split specs'
 * fixture. `splitSkip()` says what is missing where that chroot cannot be had.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { SERVER_CHROOT, toolsExtraSkip } from './llama-server';

const WORK = '/tmp/inpage-llm-split';

/** Null when `llama-gguf-split` can run here (installing it first if it can), else why not. */
export const splitSkip = (): string | null => toolsExtraSkip('llama-gguf-split');

/** `model` split by `llama-gguf-split --split-max-tensors maxTensors`: its parts, in order. */
export function splitModel(model: Uint8Array, maxTensors: number): Uint8Array[] {
  rmSync(SERVER_CHROOT + WORK, { recursive: true, force: true });
  mkdirSync(SERVER_CHROOT + WORK, { recursive: true });
  writeFileSync(`${SERVER_CHROOT}${WORK}/in.gguf`, model);
  execFileSync(
    'chroot',
    [
      SERVER_CHROOT,
      'llama-gguf-split',
      '--split',
      '--split-max-tensors',
      String(maxTensors),
      `${WORK}/in.gguf`,
      `${WORK}/out`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const parts = readdirSync(SERVER_CHROOT + WORK)
    .filter((name) => /^out-\d{5}-of-\d{5}\.gguf$/.test(name))
    .sort();
  return parts.map((name) => new Uint8Array(readFileSync(`${SERVER_CHROOT}${WORK}/${name}`)));
}
