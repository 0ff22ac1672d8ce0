/**
 * One embedding request served as a job (`serveJob`): on its model's queue, cancelled like
 * every job, answered with exactly one `embedding.result` or `generation.error`.
 */
import type { EmbeddingRequest } from '#core/domain/embedding';
import type { RequestLog } from './request-log';
import { serveJob, type JobTarget } from './serve-job';

export type EmbeddingTarget = JobTarget;

export function serveEmbedding(
  target: EmbeddingTarget | undefined,
  request: EmbeddingRequest,
  port: MessagePort,
  log: RequestLog,
): void {
  serveJob(target, { kind: 'embedding', request }, port, log);
}
