/**
 * The `/metrics` page in Prometheus' text format (version 0.0.4): a `# HELP` and a `# TYPE`
 * line per metric, then one sample per model (`model` label), under llama-server's names
 * (`llamacpp:prompt_tokens_total`, ...) where it has them, counters ending in `_total`.
 * `requests_total` (by `outcome`), which llama-server lacks, follows Prometheus' conventions.
 */
import type { ModelCounters } from './model-metrics';

interface Metric {
  name: string;
  type: 'counter' | 'gauge';
  help: string;
  value(c: ModelCounters): number;
}

const perSecond = (tokens: number, seconds: number) => (seconds > 0 ? tokens / seconds : 0);

const METRICS: Metric[] = [
  {
    name: 'prompt_tokens_total',
    type: 'counter',
    help: 'Number of prompt tokens processed, excluding cached tokens',
    value: (c) => c.promptTokens,
  },
  {
    name: 'prompt_tokens_cached_total',
    type: 'counter',
    help: 'Number of prompt tokens reused from the cache',
    value: (c) => c.promptCached,
  },
  {
    name: 'prompt_seconds_total',
    type: 'counter',
    help: 'Total time spent processing prompts',
    value: (c) => c.promptSeconds,
  },
  {
    name: 'tokens_predicted_total',
    type: 'counter',
    help: 'Number of generation tokens processed',
    value: (c) => c.predictedTokens,
  },
  {
    name: 'tokens_predicted_seconds_total',
    type: 'counter',
    help: 'Total time spent generating tokens',
    value: (c) => c.predictedSeconds,
  },
  {
    name: 'n_decode_total',
    type: 'counter',
    help: "Total number of llama_decode() calls of the model's prompt steps and tokens (its engine's, since it loaded)",
    value: (c) => c.decodes,
  },
  {
    name: 'n_tokens_max',
    // A largest value, not a count: a gauge (llama-server types it a counter).
    type: 'gauge',
    help: 'Largest observed sequence length (prompt + generation)',
    value: (c) => c.maxTokens,
  },
  {
    name: 'spec_decode_num_draft_tokens_total',
    type: 'counter',
    help: 'Speculative: Total draft tokens generated',
    value: (c) => c.draftTokens,
  },
  {
    name: 'spec_decode_num_accepted_tokens_total',
    type: 'counter',
    help: 'Speculative: Total draft tokens accepted by the target model',
    value: (c) => c.draftAccepted,
  },
  {
    name: 'spec_decode_num_drafts_total',
    type: 'counter',
    help: 'Speculative: Total speculative decoding verification steps',
    value: (c) => c.drafts,
  },
  {
    name: 'prompt_tokens_seconds',
    type: 'gauge',
    help: 'Average prompt throughput in tokens/s (requests finished since the last scrape)',
    value: (c) => perSecond(c.bucket.promptTokens, c.bucket.promptSeconds),
  },
  {
    name: 'predicted_tokens_seconds',
    type: 'gauge',
    help: 'Average generation throughput in tokens/s (requests finished since the last scrape)',
    value: (c) => perSecond(c.bucket.predictedTokens, c.bucket.predictedSeconds),
  },
  {
    name: 'requests_processing',
    type: 'gauge',
    help: 'Number of requests processing',
    value: (c) => c.processing,
  },
  {
    name: 'requests_deferred',
    type: 'gauge',
    help: 'Number of requests deferred (waiting for the engine)',
    value: (c) => c.deferred,
  },
  {
    name: 'n_busy_slots_per_decode',
    type: 'gauge',
    help: 'Average number of slots per llama_decode() call (their tokens decoded together)',
    value: (c) => c.decodedSlots / Math.max(c.decodes, 1),
  },
];

/** A label value escaped as the text format wants it (backslash, double quote, newline). */
const label = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** The text of every metric for `models`' counters. */
export function prometheusText(models: ReadonlyArray<[string, ModelCounters]>): string {
  const lines: string[] = [];
  for (const metric of METRICS) {
    const name = `llamacpp:${metric.name}`;
    lines.push(`# HELP ${name} ${metric.help}`, `# TYPE ${name} ${metric.type}`);
    for (const [model, c] of models) lines.push(`${name}{model="${label(model)}"} ${metric.value(c)}`);
  }
  // llama-server's labeled counter: one sample a draft position, only once a draft was checked.
  const perPos = 'llamacpp:spec_decode_num_accepted_tokens_per_pos_total';
  const drafting = models.filter(([, c]) => c.draftAcceptedPerPos.length > 0);
  if (drafting.length > 0)
    lines.push(`# HELP ${perPos} Accepted tokens per draft position`, `# TYPE ${perPos} counter`);
  for (const [model, c] of drafting)
    for (const [position, n] of c.draftAcceptedPerPos.entries())
      lines.push(`${perPos}{model="${label(model)}",position="${position}"} ${n}`);
  const requests = 'llamacpp:requests_total';
  lines.push(`# HELP ${requests} Number of requests ended, by outcome`, `# TYPE ${requests} counter`);
  for (const [model, c] of models)
    for (const [outcome, n] of Object.entries(c.requests))
      lines.push(`${requests}{model="${label(model)}",outcome="${outcome}"} ${n}`);
  return `${lines.join('\n')}\n`;
}
