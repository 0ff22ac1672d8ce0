/**
 * `/metrics`' text: `# HELP` and `# TYPE` for each metric, llama-server's names, one sample per
 * model with its label escaped; the throughput gauges over what finished since the last scrape.
 */
import { describe, expect, it } from 'vitest';
import { countersOf, scrapeCounters } from '../../../../../worker/sw/metrics/model-metrics';
import { prometheusText } from '../../../../../worker/sw/metrics/prometheus-text';

describe('prometheusText', () => {
  it('writes every metric with HELP and TYPE, a sample per model, and empties the gauges on scrape', () => {
    const c = countersOf('a"b');
    c.predictedTokens = 10;
    c.bucket.predictedTokens = 10;
    c.bucket.predictedSeconds = 0.5;
    c.requests.completed = 2;
    c.draftTokens = 12;
    const text = prometheusText(
      scrapeCounters().map(([id, counters]) => [id, { ...counters, decodes: 4, decodedSlots: 6 }]),
    );
    expect(text).toContain('llamacpp:n_decode_total{model="a\\"b"} 4\n');
    expect(text).toContain(
      '# TYPE llamacpp:n_busy_slots_per_decode gauge\nllamacpp:n_busy_slots_per_decode{model="a\\"b"} 1.5\n',
    );
    expect(text).toContain('llamacpp:spec_decode_num_draft_tokens_total{model="a\\"b"} 12\n');
    expect(text).toContain(
      '# TYPE llamacpp:tokens_predicted_total counter\nllamacpp:tokens_predicted_total{model="a\\"b"} 10\n',
    );
    expect(text).toContain('llamacpp:predicted_tokens_seconds{model="a\\"b"} 20\n');
    expect(text).toContain('llamacpp:requests_total{model="a\\"b",outcome="completed"} 2\n');
    for (const [, name] of text.matchAll(/^(llamacpp:\w+)\{/gm)) {
      expect(text).toContain(`# HELP ${name} `);
      expect(text).toMatch(new RegExp(`# TYPE ${name} (counter|gauge)\\n`));
    }
    expect(prometheusText(scrapeCounters())).toContain('llamacpp:predicted_tokens_seconds{model="a\\"b"} 0\n');
  });

  it("writes llama-server's per-position draft counter, labeled by position, only for a model that checked a draft", () => {
    const drafting = countersOf('drafting');
    drafting.draftAcceptedPerPos = [5, 3, 0];
    countersOf('plain');
    const text = prometheusText(scrapeCounters());
    expect(text).toContain(
      '# HELP llamacpp:spec_decode_num_accepted_tokens_per_pos_total Accepted tokens per draft position\n' +
        '# TYPE llamacpp:spec_decode_num_accepted_tokens_per_pos_total counter\n' +
        'llamacpp:spec_decode_num_accepted_tokens_per_pos_total{model="drafting",position="0"} 5\n' +
        'llamacpp:spec_decode_num_accepted_tokens_per_pos_total{model="drafting",position="1"} 3\n' +
        'llamacpp:spec_decode_num_accepted_tokens_per_pos_total{model="drafting",position="2"} 0\n',
    );
    expect(text).not.toContain('per_pos_total{model="plain"');
    expect(prometheusText(scrapeCounters('plain'))).not.toContain('per_pos');
  });

  it("scrapes one model's counters alone (`?model=`), emptying only its gauges; one not counted yet is at zero", () => {
    countersOf('one').bucket.predictedTokens = 4;
    countersOf('one').bucket.predictedSeconds = 1;
    countersOf('two').bucket.predictedTokens = 6;
    countersOf('two').bucket.predictedSeconds = 1;
    const one = prometheusText(scrapeCounters('one'));
    expect(one).toContain('llamacpp:predicted_tokens_seconds{model="one"} 4\n');
    expect(one).not.toContain('model="two"');
    expect(prometheusText(scrapeCounters('two'))).toContain('llamacpp:predicted_tokens_seconds{model="two"} 6\n');
    expect(prometheusText(scrapeCounters('one'))).toContain('llamacpp:predicted_tokens_seconds{model="one"} 0\n');
    expect(prometheusText(scrapeCounters('new'))).toContain('llamacpp:tokens_predicted_total{model="new"} 0\n');
  });
});
