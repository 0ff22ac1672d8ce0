/**
 * Peak resident memory of Chromium's renderer processes started by this bench (descendants of
 * this Node process), from /proc/<pid>/status VmHWM. The engine worker (and the llama.cpp engine's wasm heap)
 * lives in the renderer process of the page that owns it. Linux only; elsewhere it reports nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Renderer pids below this process. */
export function rendererPids(): Set<number> {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    const stat = read(`/proc/${name}/stat`);
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    parents.set(Number(name), ppid);
  }
  const mine = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 20; p = parents.get(p) ?? 0, hops++) if (p === process.pid) return true;
    return false;
  };
  const pids = new Set<number>();
  for (const pid of parents.keys())
    if (mine(pid) && read(`/proc/${pid}/cmdline`).includes('--type=renderer')) pids.add(pid);
  return pids;
}

/** The largest VmHWM (MB) among `pids`; NaN when none can be read. */
export function peakRssMb(pids: Iterable<number>): number {
  let peak = NaN;
  for (const pid of pids) {
    const kb = Number(read(`/proc/${pid}/status`).match(/VmHWM:\s+(\d+)/)?.[1]);
    if (Number.isFinite(kb) && !(kb / 1024 <= peak)) peak = kb / 1024;
  }
  return peak;
}
