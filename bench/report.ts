/**
 * The bench's printed tables (markdown), from medians of the rounds. Beside native llama.cpp,
 * the previous engine (wllama, in a page of its own) is the in-page baseline: `x / wllama` above
 * 1 is faster than it.
 */
import type { ModelResult } from './model-bench';
import type { RunSample } from './page-runs';
import { fmt, median } from './stats';
import type { TransportResult } from './transport-bench';

const prefillRate = (samples: RunSample[]): number => median(samples.map((s) => s.promptTokens / (s.totalMs / 1000)));
const decodeRate = (samples: RunSample[]): number =>
  median(samples.map((s) => (s.tokens - 1) / ((s.totalMs - s.ttftMs) / 1000)));

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Prefill, decode and queueing/memory tables for the models. */
export function modelTables(results: ModelResult[], threads: readonly number[]): string {
  const prefill: string[][] = [];
  const decode: string[][] = [];
  const other: string[][] = [];
  for (const r of results) {
    const native = threads.map((t) => r.native.get(t) ?? []);
    const nPrefill = native.map((samples) => median(samples.map((s) => s.promptTokens / (s.prefillMs / 1000))));
    const nDecode = native.map((samples) => median(samples.map((s) => s.decodeTps)));
    const [pe, pd, pw] = [
      prefillRate(r.prefill.endpoint),
      prefillRate(r.prefill.direct),
      prefillRate(r.prefill.wllama),
    ];
    const [de, dd, dw] = [decodeRate(r.decode.endpoint), decodeRate(r.decode.direct), decodeRate(r.decode.wllama)];
    const name = `${r.model.id} (${fmt(r.model.bytes / 1e6)} MB)`;
    prefill.push([
      name,
      fmt(pe),
      fmt(pd),
      fmt(pw),
      ...nPrefill.map((v) => fmt(v)),
      fmt(pe / Math.max(...nPrefill), 2),
      fmt(pe / pw, 2),
      fmt(pd / pw, 2),
      fmt(pe / pd, 2),
    ]);
    decode.push([
      name,
      fmt(de, 1),
      fmt(dd, 1),
      fmt(dw, 1),
      ...nDecode.map((v) => fmt(v, 1)),
      fmt(de / Math.max(...nDecode), 2),
      fmt(de / dw, 2),
      fmt(dd / dw, 2),
      fmt(de / dd, 2),
    ]);
    const finite = native.flat().every((s) => s.finite);
    other.push([
      name,
      fmt(r.loadMs),
      fmt(r.wllamaLoadMs),
      fmt(median(r.queued.map((q) => q.queuedTtftMs)), 1),
      fmt(median(r.queued.map((q) => q.gapMs)), 1),
      fmt(r.pagePeakMb),
      fmt(r.wllamaPeakMb),
      fmt(Math.max(...native.flat().map((s) => s.maxRssMb))),
      finite ? 'yes' : 'NO',
    ]);
  }
  const speed = [
    'model',
    'endpoint',
    'direct',
    'wllama',
    ...threads.map((t) => `native ${t}t`),
    'endpoint / best native',
    'endpoint / wllama',
    'direct / wllama',
    'endpoint / direct',
  ];
  const promptTokens = results[0]?.prefill.endpoint[0]?.promptTokens ?? NaN;
  return [
    `Prefill (tok/s, ${promptTokens}-token prompt, cache_prompt false; wllama = the previous engine, 1 thread)`,
    table(speed, prefill),
    '',
    'Decode (tok/s after the first token, greedy, ignore_eos)',
    table(speed, decode),
    '',
    'Load, queueing and memory',
    table(
      [
        'model',
        'page load ms',
        'wllama load ms',
        'queued TTFT ms',
        'queued gap ms',
        'page peak RSS MB',
        'wllama page peak RSS MB',
        'native peak RSS MB',
        'native logits finite',
      ],
      other,
    ),
  ].join('\n');
}

/** `values` at quantile `q` (nearest rank). */
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? NaN;

/** The TTFT line: endpoint minus direct over short pairs, with its spread and the raw differences. */
function ttftTable({ endpoint, direct }: TransportResult['ttft']): string {
  const differences = endpoint.map((s, i) => s.ttftMs - (direct[i]?.ttftMs ?? NaN));
  const ms = (samples: RunSample[]) => median(samples.map((s) => s.ttftMs));
  return [
    `Time to first token, ${differences.length} pairs of 2-token streams (endpoint then direct, or the reverse)`,
    table(
      ['endpoint TTFT ms', 'direct TTFT ms', 'overhead ms (median of pairs)', 'overhead p25 / p75 ms'],
      [
        [
          fmt(ms(endpoint), 1),
          fmt(ms(direct), 1),
          fmt(median(differences), 1),
          `${fmt(quantile(differences, 0.25), 1)} / ${fmt(quantile(differences, 0.75), 1)}`,
        ],
      ],
    ),
    `overhead per pair (ms): ${differences.map((d) => fmt(d, 1)).join(' ')}`,
  ].join('\n');
}

/** The transport lines on `inpage-test`. */
export function transportTable(result: TransportResult): string {
  const [e, d] = [decodeRate(result.endpoint), decodeRate(result.direct)];
  const ttft = (samples: RunSample[]) => median(samples.map((s) => s.ttftMs));
  const overhead = median(result.endpoint.map((s, i) => s.ttftMs - (result.direct[i]?.ttftMs ?? NaN)));
  return [
    `Transport on inpage-test (${result.endpoint[0]?.tokens ?? 0} tokens)`,
    table(
      [
        'endpoint tok/s',
        'direct tok/s',
        'endpoint / direct',
        'endpoint TTFT ms',
        'direct TTFT ms',
        'TTFT overhead ms (median of pairs)',
      ],
      [[fmt(e), fmt(d), fmt(e / d, 3), fmt(ttft(result.endpoint), 1), fmt(ttft(result.direct), 1), fmt(overhead, 1)]],
    ),
    '',
    ttftTable(result.ttft),
  ].join('\n');
}
