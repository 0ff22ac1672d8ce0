/**
 * Fetches one range of a stored file into its OPFS file, from the bytes it already holds:
 * chunks go out through a 1 MiB buffer (`range-writer.ts`), written whenever an answer ends,
 * so an answer cut off at any byte costs no byte again. A cut answer (a reset, a dropped network) is asked again from where
 * it stopped, after a back-off, up to `MAX_RETRIES` times in a row without progress.
 */
import { OpenAIError } from '#core/domain/errors';
import type { StoredFile } from '#core/domain/stored-model';
import { RangeRefused, StorageFull, downloadFailed } from './download-errors';
import type { ModelFolder } from './model-folder';
import { answersRange, requestRange } from './range-request';
import { RangeWriter } from './range-writer';

const MAX_RETRIES = 5;
const FIRST_BACKOFF_MS = 250;

/** What the range's bytes pass through: the head check, the size check and the progress. */
export type OnBytes = (chunk: Uint8Array, offset: number) => void;

export interface RangeJob {
  folder: ModelFolder;
  model: string;
  file: StoredFile;
  /** The file's index in its model, and the range's in its file. */
  fileIndex: number;
  rangeIndex: number;
  /**
   * The first answer of a file not started (`first-answer.ts`): range 0 begins with its body,
   * which ends at `end` (null: at the range's end).
   */
  initial: { response: Response; end: number | null } | null;
  onBytes: OnBytes;
  /** Aborted when a sibling range failed: this one stops at once. */
  signal: AbortSignal;
}

/** Fetches the range's missing bytes; resolves with its end (known at the end where it was not). */
export async function fetchRange(job: RangeJob): Promise<number> {
  const { file, folder } = job;
  const [start, end] = file.ranges[job.rangeIndex] ?? [0, null];
  const handle = await folder.openRange(job.fileIndex, job.rangeIndex);
  try {
    if (job.initial) handle.truncate(0);
    const writer = new RangeWriter(handle);
    let initial = job.initial;
    let failures = 0;
    for (;;) {
      const have = writer.length;
      if (end !== null && start + have >= end) return end;
      // The first answer stops where it was asked to; every later one runs to the range's end.
      const answer = initial ?? { response: await ask(job, start + have, end), end };
      initial = null;
      try {
        await drain(answer.response, writer, start, earlier(answer.end, end), job);
        if (end === null && answer.end === null) return start + writer.length;
        failures = 0;
      } catch (error) {
        if (job.signal.aborted) throw error;
        // The checks' refusals (not a GGUF file, too large) and a spent quota are not retried.
        if (error instanceof StorageFull || error instanceof OpenAIError) throw error;
        failures = writer.length === have ? failures + 1 : 1;
        if (failures > MAX_RETRIES)
          throw downloadFailed(job.model, `the connection to ${file.url} broke ${failures} times in a row.`, error);
        await new Promise((resolve) => setTimeout(resolve, FIRST_BACKOFF_MS * 2 ** (failures - 1)));
      }
    }
  } finally {
    handle.flush();
    handle.close();
  }
}

/** Asks for `[from, end)`; a whole-file answer is `RangeRefused`, an HTTP error a 503. */
async function ask(job: RangeJob, from: number, end: number | null): Promise<Response> {
  let response: Response;
  try {
    response = await requestRange(job.file, from, end, job.signal);
  } catch {
    // Unreachable now: the caller's retry loop counts it like a cut answer.
    return Response.error();
  }
  if (answersRange(response, job.file, from)) return response;
  await response.body?.cancel().catch(() => undefined);
  if (response.status === 200 || response.status === 206 || response.status === 412)
    throw new RangeRefused(job.file.url, response);
  throw downloadFailed(job.model, `HTTP ${response.status} for ${job.file.url}.`);
}

/**
 * Writes `answer`'s body after the range's bytes, up to file byte `stop` (null: the body's
 * end), and out to the file however the answer ends. Throws where the body breaks or ends
 * before `stop`.
 */
async function drain(
  answer: Response,
  writer: RangeWriter,
  start: number,
  stop: number | null,
  { onBytes, signal }: RangeJob,
): Promise<void> {
  if (answer.type === 'error' || !answer.body) throw new Error('the network is unreachable');
  const reader = answer.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      signal.throwIfAborted();
      const have = writer.length;
      const chunk = stop === null ? value : value.subarray(0, Math.min(value.length, stop - start - have));
      onBytes(chunk, start + have);
      writer.add(chunk);
      if (stop !== null && start + writer.length >= stop) return;
    }
  } finally {
    writer.flush();
    await reader.cancel().catch(() => undefined);
  }
  if (stop !== null) throw new Error(`the answer ended at byte ${start + writer.length} of ${stop}`);
}

/** The smaller of two ends (null: none). */
const earlier = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
