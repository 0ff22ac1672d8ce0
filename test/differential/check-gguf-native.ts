/**
 * The GGUF fuzzer against native llama.cpp: `npm run fuzz:gguf-native` builds the unit tier's
 * 300 mutants (test/fixtures/gguf-mutants.ts, GGUF_FUZZ_SEED as there), runs each through the
 * validator and through native llama.cpp (node-llama-cpp, scripts/native-load-gguf.ts), and
 * prints where they disagree: files the validator accepts that native llama.cpp refuses or
 * aborts on (should be none), and files it refuses that native llama.cpp loads (it is stricter),
 * and every file native llama.cpp aborts on or takes too long with.
 * Needs `npm run build` (dist/models/inpage-test-qwen3.gguf).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { GgufError } from '../../src/gguf/gguf-error';
import { validateGguf } from '../../src/gguf/validate-gguf';
import { ggufMutants, masterSeed } from '../fixtures/gguf-mutants';

interface Native {
  child: ChildProcessWithoutNullStreams;
  lines: AsyncIterator<string>;
}

function startNative(): Native {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/differential/native-load-gguf.ts'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  child.stderr.resume();
  const lines: Interface = createInterface({ input: child.stdout });
  return { child, lines: lines[Symbol.asyncIterator]() };
}

/** Ends the native process (its group: a hung llama.cpp does not read stdin). */
function stopNative(native: Native): void {
  try {
    if (native.child.pid !== undefined) process.kill(-native.child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * The longest one file may take natively, `GGUF_NATIVE_TIMEOUT_S` (default 60): a claimed 2^32
 * tensors keeps llama.cpp busy for minutes, while the good qwen3 model takes ~30 s on a busy
 * 2-core machine.
 */
const FILE_TIMEOUT_MS = Number(process.env.GGUF_NATIVE_TIMEOUT_S ?? 60) * 1000;

/** Native llama.cpp's verdict on `file`: loaded, refused (with its reason), crashed or hung. */
async function nativeVerdict(native: Native, file: string): Promise<{ verdict: string; reason: string }> {
  native.child.stdin.write(`${file}\n`);
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<{ verdict: string; reason: string }>((resolve) => {
    timer = setTimeout(
      () => resolve({ verdict: 'hung', reason: `no answer in ${FILE_TIMEOUT_MS / 1000} s` }),
      FILE_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([readVerdict(native), hung]);
  } finally {
    clearTimeout(timer);
  }
}

async function readVerdict(native: Native): Promise<{ verdict: string; reason: string }> {
  for (;;) {
    const next = await native.lines.next();
    if (next.done) return { verdict: 'crashed', reason: `exit ${native.child.exitCode ?? native.child.signalCode}` };
    if (!next.value.startsWith('{')) continue;
    const line: unknown = JSON.parse(next.value);
    if (typeof line !== 'object' || line === null) continue;
    const loaded = Reflect.get(line, 'loaded') === true;
    return { verdict: loaded ? 'loaded' : 'refused', reason: String(Reflect.get(line, 'error') ?? '') };
  }
}

const seed = masterSeed();
const qwen3 = new Uint8Array(await readFile('dist/models/inpage-test-qwen3.gguf'));
const mutants = [
  ...ggufMutants('inpage-test', buildInpageTestModel(), seed, 10),
  ...ggufMutants('inpage-test-qwen3', qwen3, seed, 2),
];
const dir = await mkdtemp(join(tmpdir(), 'gguf-native-'));
const counts = new Map<string, number>();
let native = startNative();
try {
  for (const mutant of mutants) {
    const ours = await validateGguf(mutant.blob()).then(
      () => 'accepted',
      (error: unknown) => {
        if (error instanceof GgufError) return 'refused';
        throw error;
      },
    );
    const file = join(dir, `${mutant.id.replace('#', '-')}.gguf`);
    await writeFile(file, new Uint8Array(await mutant.blob().arrayBuffer()));
    const { verdict, reason } = await nativeVerdict(native, file);
    if (verdict === 'crashed' || verdict === 'hung') {
      stopNative(native);
      native = startNative();
    }
    await rm(file);
    const key = `validator ${ours}, native ${verdict}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if ((ours === 'accepted') !== (verdict === 'loaded') || verdict === 'crashed' || verdict === 'hung')
      console.log(`${key}: GGUF_FUZZ_SEED=${seed} ${mutant.id} (seed ${mutant.seed}): ${mutant.mutation} ${reason}`);
  }
} finally {
  stopNative(native);
  await rm(dir, { recursive: true, force: true });
}
console.log(`GGUF fuzz vs native llama.cpp (seed ${seed}), ${mutants.length} files:`, Object.fromEntries(counts));
