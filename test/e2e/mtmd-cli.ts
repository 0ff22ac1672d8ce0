/**
 * Debian's `llama-mtmd-cli` (llama.cpp-tools-extra, in the llama-server chroot:
 * `toolsExtraSkip('llama-mtmd-cli')`), llama.cpp's own command-line reader of images and audio, as
 * a second native reference beside llama-server `--mmproj`: one user turn (`-p`, with its media
 * marker put first as mtmd-cli puts it), greedy, its generated text.
 *
 * It runs on one thread (`-t 1`): with two, Debian's 0.7.0 often exits 0 in the middle of the
 * encode having written nothing (5 of 7 runs on test-1.jpeg here; with `-t 1`, 0 of 20 on the
 * two pairs). Its log is checked for the encode's end, so such a run fails as what it is.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { modelInChroot, placeModel } from './llama-server';

const CHROOT = process.env.INPAGE_SERVER_CHROOT ?? '/var/cache/inpage-llm/sid-server';

export interface MtmdCliRun {
  /** A model and its projector, placed in the chroot as `name` and `name.mmproj`. */
  name: string;
  model: Uint8Array;
  projector: Uint8Array;
  /** The medium's bytes, and whether mtmd-cli gets it as `--image` or `--audio`. */
  media: { bytes: Uint8Array; kind: 'image' | 'audio' };
  prompt: string;
  maxTokens: number;
  /** More flags (the KV cache's type, say). */
  args?: readonly string[];
}

function run(args: readonly string[]): Promise<{ out: string; log: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('chroot', [CHROOT, 'llama-mtmd-cli', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve({ out, log }) : reject(new Error(`llama-mtmd-cli exited (${code}):\n${log.slice(-2000)}`)),
    );
  });
}

/** The text llama-mtmd-cli generates. */
export async function mtmdCliText({
  name,
  model,
  projector,
  media,
  prompt,
  maxTokens,
  args = [],
}: MtmdCliRun): Promise<string> {
  placeModel(name, model);
  placeModel(`${name}.mmproj`, projector);
  const file = `/tmp/inpage-llm-test/${name}.medium`;
  writeFileSync(CHROOT + file, media.bytes);
  const { out, log } = await run([
    '--jinja',
    '-t',
    '1',
    '-m',
    modelInChroot(name),
    '--mmproj',
    modelInChroot(`${name}.mmproj`),
    `--${media.kind}`,
    file,
    '-p',
    prompt,
    '-n',
    String(maxTokens),
    '--temp',
    '0',
    ...args,
  ]);
  if (!/mtmd batch encoding done/.test(log))
    throw new Error(`llama-mtmd-cli stopped before its encode ended:\n${log.slice(-2000)}`);
  // It writes a newline, the generated text, and two newlines.
  const framed = /^\n([\s\S]*)\n\n$/.exec(out);
  if (!framed) throw new Error(`llama-mtmd-cli wrote ${JSON.stringify(out)}`);
  return framed[1] ?? '';
}
