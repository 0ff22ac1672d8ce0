/**
 * Debian's real `llama-server` (package llama.cpp-tools, in the sid chroot that
 * scripts/chroot/make-server-chroot.sh makes) on 127.0.0.1 and a free port, on the project's
 * `inpage-test` GGUF (or another GGUF placed in the chroot with `placeModel`), for the route
 * and differential specs; and a recording proxy in front of one (every request
 * it saw, and the bytes each answer carried) as the network log. `serverSkip()` says what is
 * missing where the chroot cannot be made (not root, not Debian): the specs are then skipped.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';

/** The chroot with Debian's llama.cpp packages (`INPAGE_SERVER_CHROOT` to use another). */
export const SERVER_CHROOT = process.env.INPAGE_SERVER_CHROOT ?? '/var/cache/inpage-llm/sid-server';
const MODELS_IN_CHROOT = '/tmp/inpage-llm-test';
const MODEL_IN_CHROOT = `${MODELS_IN_CHROOT}/inpage-test.gguf`;
/** A folder for `--slot-save-path` (llama-server wants it to exist), emptied by each `serverSkip()`. */
export const SLOT_SAVE_PATH = `${MODELS_IN_CHROOT}/slots/`;

/** Null when llama-server can run here (making the chroot first if it can), else why not. */
export function serverSkip(): string | null {
  if (!existsSync(`${SERVER_CHROOT}/usr/bin/llama-server`)) {
    if (process.getuid?.() !== 0) return `llama-server: no chroot at ${SERVER_CHROOT}, and making one needs root`;
    if (!existsSync('/etc/debian_version'))
      return `llama-server: no chroot at ${SERVER_CHROOT}, and making one needs Debian (debootstrap)`;
    try {
      execFileSync('bash', ['scripts/chroot/make-server-chroot.sh', SERVER_CHROOT], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    } catch {
      return `llama-server: scripts/chroot/make-server-chroot.sh could not make ${SERVER_CHROOT}`;
    }
  }
  mkdirSync(`${SERVER_CHROOT}/tmp/inpage-llm-test`, { recursive: true });
  rmSync(SERVER_CHROOT + SLOT_SAVE_PATH, { recursive: true, force: true });
  mkdirSync(SERVER_CHROOT + SLOT_SAVE_PATH);
  if (!existsSync(SERVER_CHROOT + MODEL_IN_CHROOT))
    writeFileSync(SERVER_CHROOT + MODEL_IN_CHROOT, buildInpageTestModel());
  // The chroot's /proc (the script mounts it; a reboot unmounts it).
  execFileSync('bash', ['scripts/chroot/make-server-chroot.sh', SERVER_CHROOT], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return null;
}

/**
 * Null when `program` of Debian's llama.cpp-tools-extra (llama-gguf-split, llama-mtmd-cli) can
 * run in the server's chroot, installing the package the first time; else why not.
 */
export function toolsExtraSkip(program: string): string | null {
  const skip = serverSkip();
  if (skip !== null) return skip;
  try {
    execFileSync(
      'bash',
      ['scripts/chroot/make-sid-chroot.sh', SERVER_CHROOT, `/usr/bin/${program}`, 'llama.cpp-tools-extra'],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  } catch {
    return `${program}: llama.cpp-tools-extra could not be installed in ${SERVER_CHROOT}`;
  }
  return existsSync(`${SERVER_CHROOT}/usr/bin/${program}`) ? null : `${program}: not in ${SERVER_CHROOT}`;
}

/** Writes `bytes` as `file` into the chroot's test folder (unless the same bytes are there); its path there. */
export function placeFile(file: string, bytes: Uint8Array): string {
  const path = `${SERVER_CHROOT}${MODELS_IN_CHROOT}/${file}`;
  if (!existsSync(path) || !Buffer.from(bytes).equals(readFileSync(path))) writeFileSync(path, bytes);
  return `${MODELS_IN_CHROOT}/${file}`;
}

/** Writes `bytes` as `<name>.gguf` into the chroot (unless the same bytes are there), for `startLlamaServer(name)`. */
export function placeModel(name: string, bytes: Uint8Array): void {
  placeFile(`${name}.gguf`, bytes);
}

/**
 * Runs a program of the chroot's llama.cpp packages with `args`; its stdout and stderr together.
 * `pkg`: the Debian package that has it, installed first where the chroot lacks it (the chroot is
 * made with llama.cpp-tools only: llama.cpp-tools-extra's `llama-batched-bench` is for benches).
 */
export function runInServerChroot(program: string, args: readonly string[], pkg?: string): Promise<string> {
  if (pkg && !existsSync(`${SERVER_CHROOT}/usr/bin/${program}`)) {
    execFileSync('chroot', [SERVER_CHROOT, 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', pkg], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  return new Promise((resolve, reject) => {
    const child = spawn('chroot', [SERVER_CHROOT, program, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${program} exited (${code}):\n${out.slice(-2000)}`)),
    );
  });
}

/** Where `placeModel(name, ...)` put a model, as llama-server in the chroot sees it (for `-md`). */
export const modelInChroot = (name: string): string => `${MODELS_IN_CHROOT}/${name}.gguf`;

export interface LlamaServer {
  readonly port: number;
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseURL: string;
  /** The tail of its log (stderr, the last 4,000 characters): its startup lines until requests add more. */
  log(): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * llama-server on `model` (`inpage-test`, or a name given to `placeModel`), with `args` as more
 * flags (`['--embeddings', '--pooling', 'mean']` for `/v1/embeddings`).
 */
export async function startLlamaServer({
  model = 'inpage-test',
  args = [],
}: { model?: string; args?: readonly string[] } = {}): Promise<LlamaServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'chroot',
    [
      SERVER_CHROOT,
      'llama-server',
      '-m',
      model === 'inpage-test' ? MODEL_IN_CHROOT : `${MODELS_IN_CHROOT}/${model}.gguf`,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      // 4,096 per slot (of two): the context the page's llamacpp engine gives a model by default.
      '-c',
      '8192',
      '-t',
      '1',
      '-np',
      '2',
      '--no-webui',
      ...args,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`llama-server exited (${child.exitCode}):\n${log}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`llama-server did not become healthy:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    baseURL: `http://127.0.0.1:${port}/v1`,
    log: () => log,
    async stop() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * llama-server on a model and its projector (`--mmproj`), both placed in its chroot as `name`
 * and `name.mmproj`, with `args` as more flags.
 */
export function startMmprojServer(
  name: string,
  model: Uint8Array,
  projector: Uint8Array,
  args: readonly string[] = [],
): Promise<LlamaServer> {
  placeModel(name, model);
  placeModel(`${name}.mmproj`, projector);
  return startLlamaServer({ model: name, args: ['--mmproj', modelInChroot(`${name}.mmproj`), ...args] });
}

export interface Recorded {
  method: string;
  path: string;
  /** The request's body, as the upstream received it. */
  request: Buffer;
  /** The bytes of the answer, as the upstream sent them. */
  answer: Buffer;
}

/** A proxy to `target` on a free port that records every request and its answer's bytes. */
export async function recordingProxy(
  target: number,
): Promise<{ baseURL: string; log: Recorded[]; close(): Promise<void> }> {
  const log: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const entry: Recorded = {
      method: req.method ?? '',
      path: req.url ?? '',
      request: Buffer.alloc(0),
      answer: Buffer.alloc(0),
    };
    req.on('data', (chunk: Buffer) => (entry.request = Buffer.concat([entry.request, chunk])));
    log.push(entry);
    const upstream = httpRequest(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => {
          entry.answer = Buffer.concat([entry.answer, chunk]);
          res.write(chunk);
        });
        answer.on('end', () => res.end());
      },
    );
    upstream.on('error', () => res.destroy());
    // The client went (an abort): so does the request to the upstream, as a direct client's would.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    log,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
