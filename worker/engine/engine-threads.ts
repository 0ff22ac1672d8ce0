/**
 * The llama.cpp engine's threads in this worker: what the page asked (`useThreads`), or the
 * default (src/core/domain/threads.ts), where shared memory runs the pthreads build; one thread,
 * in the single-threaded build, elsewhere. Read at each load, so a model loaded after the call
 * takes it.
 */
import { defaultThreads, type ThreadCounts } from '#core/domain/threads';

let requested: ThreadCounts | null = null;

export function setRequestedThreads(threads: ThreadCounts): void {
  requested = threads;
}

export interface EngineThreads extends ThreadCounts {
  /** The pthreads build runs them (false: one thread, the single-threaded build). */
  pthreads: boolean;
}

/** Whether this worker has shared memory: a `crossOriginIsolated` page (COOP/COEP), where SharedArrayBuffer exists. */
export function hasSharedMemory(): boolean {
  return self.crossOriginIsolated && typeof SharedArrayBuffer === 'function';
}

/** The threads the next model loads with. */
export function engineThreads(): EngineThreads {
  const want = requested ?? defaultThreads(navigator.hardwareConcurrency || 1);
  if (Math.max(want.prefill, want.decode) <= 1 || !hasSharedMemory()) return { prefill: 1, decode: 1, pthreads: false };
  return { ...want, pthreads: true };
}
