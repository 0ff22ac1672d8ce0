/**
 * Downloads one file of a stored model into its folder: its first answer (`first-answer.ts`)
 * plans its ranges and begins range 0; the ranges are asked in parallel. A file
 * begun earlier resumes each range from its stored bytes. Where a resume is answered with the
 * whole file (no range support, or the file changed on the server), the file starts over once,
 * and a warning says so.
 */
import type { StoredEntry, StoredFile } from '#core/domain/stored-model';
import { RangeRefused } from './download-errors';
import { fetchRange, type OnBytes } from './fetch-range';
import type { ModelFolder } from './model-folder';
import { firstAnswer, planFile, type FirstAnswer } from './first-answer';

export interface FileJob {
  folder: ModelFolder;
  entry: StoredEntry;
  model: string;
  fileIndex: number;
  connections: number;
  /** Aborted when another file of the model failed: this one stops too. */
  signal: AbortSignal;
  onBytes: OnBytes;
  /** The file's size became known (its first answer), or it started over (`lost` bytes dropped). */
  onPlanned: (file: StoredFile, lost: number) => Promise<void>;
}

export async function downloadFile(job: FileJob): Promise<void> {
  const file = job.entry.files[job.fileIndex];
  if (!file) return;
  for (let attempt = 0; ; attempt++) {
    let initial: FirstAnswer | null = null;
    if (file.ranges.length === 0) {
      const answer = await firstAnswer(file.url, job.model);
      try {
        planFile(file, answer.response, job.connections);
        // The size checks come first: a model too large is refused before its bytes are asked.
        await job.onPlanned(file, 0);
        await job.folder.saveEntry(job.entry);
      } catch (error) {
        await answer.response.body?.cancel().catch(() => undefined);
        throw error;
      }
      initial = answer;
    }
    try {
      await fetchRanges(job, file, initial);
      return;
    } catch (error) {
      if (!(error instanceof RangeRefused) || attempt > 0) throw error;
      const lost = await job.folder.fileBytes(job.fileIndex, file.ranges.length);
      console.warn(
        `[inpage-llm] '${job.model}': ${file.url} starts over from byte 0 (${lost} bytes stored are dropped): ` +
          `the server answered a resume with the whole file (HTTP ${error.response.status}), so it takes no ranges or the file changed.`,
      );
      await job.folder.dropFile(job.fileIndex, file.ranges.length);
      file.ranges = [];
      await job.onPlanned(file, lost);
    }
  }
}

/** Runs every range; the first failure stops the others (their handles closed) and goes on. */
async function fetchRanges(job: FileJob, file: StoredFile, initial: FirstAnswer | null): Promise<void> {
  const controller = new AbortController();
  job.signal.addEventListener('abort', () => controller.abort(), { once: true });
  let first: unknown = null;
  const results = await Promise.allSettled(
    file.ranges.map((_, rangeIndex) =>
      fetchRange({
        ...job,
        file,
        rangeIndex,
        initial: rangeIndex === 0 ? initial : null,
        signal: controller.signal,
      }).catch((error: unknown) => {
        first ??= error;
        controller.abort();
        throw error;
      }),
    ),
  );
  if (first !== null) throw first;
  // A file of unknown size (a compressed answer) is one range: its end is its size.
  const end = results[0]?.status === 'fulfilled' ? results[0].value : null;
  if (file.size === null && end !== null) {
    file.size = end;
    file.ranges = [[0, end]];
  }
}
