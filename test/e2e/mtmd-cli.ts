/**
 * Debian's `llama-mtmd-cli` (llama.cpp-tools-extra, in the llama-server chroot:
 * `toolsExtraSkip('llama-mtmd-cli')`), llama.cpp's own command-line reader of images and audio, as
 * a second native reference beside llama-server `--mmproj`: one user turn (`-p`, with its media
 * marker put first as mtmd-cli puts it), greedy, its generated text.
 *
 * Its text goes out through llama.cpp's asynchronous logger, which is never flushed at exit (the
 * singleton is leaked on purpose, common/log.cpp: "this design may cause logs to be lost"), so a
 * run can exit 0 having written only part of it, or nothing: here 5 of 7 runs at two threads, and
 * 1 of about 20 at one thread on a loaded machine. The log's entries leave in order, so a run
 * whose output ends with the two closing newlines wrote all of it; a run that did not is run
 * again, up to five times (on one thread, `-t 1`, where it is rare).
 */
import { spawn } from 'node:child_process';
import { modelInChroot, placeFile, placeModel, SERVER_CHROOT } from './llama-server';

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

function run(args: readonly string[]): Promise<{ out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('chroot', [SERVER_CHROOT, 'llama-mtmd-cli', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve({ out }) : reject(new Error(`llama-mtmd-cli exited (${code}):\n${log.slice(-2000)}`)),
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
  const file = placeFile(`${name}.medium`, media.bytes);
  const argv = [
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
  ];
  let last = '';
  for (let attempt = 0; attempt < 5; attempt++) {
    const { out } = await run(argv);
    // A newline, the generated text, and two newlines: all of it was written.
    const framed = /^\n([\s\S]*)\n\n$/.exec(out);
    if (framed) return framed[1] ?? '';
    last = out;
  }
  throw new Error(`llama-mtmd-cli wrote ${JSON.stringify(last)} in each of five runs`);
}
