/** Runs bench/native-run.ts in a child process and parses its JSON line. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** One native measurement. */
export interface NativeSample {
  prefillMs: number;
  promptTokens: number;
  decodeTps: number;
  finite: boolean;
  maxRssMb: number;
}

const run = promisify(execFile);

/** Prefill of `promptTokens` and decode of `decodeTokens` on native llama.cpp with `threads`. */
export async function nativeSample(
  file: string,
  threads: number,
  promptTokens: number,
  decodeTokens: number,
  decodeContext = 0,
): Promise<NativeSample> {
  const { stdout } = await run(
    'npx',
    [
      'tsx',
      'bench/native-run.ts',
      file,
      String(threads),
      String(promptTokens),
      String(decodeTokens),
      String(decodeContext),
    ],
    { maxBuffer: 1 << 20 },
  );
  const line = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as NativeSample;
}
