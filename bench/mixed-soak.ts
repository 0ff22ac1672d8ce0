/**
 * `npm run soak` (not part of `npm test`): one page on `inpage-test`, for SOAK_SECONDS (default
 * 600), does the actions of `bench/mixed-actions.ts` in an order drawn from SOAK_SEED (printed;
 * the same seed gives the same order): exact JSON and SSE requests, lone-surrogate requests,
 * loads of truncated GGUFs, the engine worker closed mid-stream, stream aborts, Service Worker
 * stops, while two lanes send exact traffic throughout. It fails (exit 1) on a request
 * unanswered after 5 s (counted from its start, or, for one that waited for a killed engine's
 * replacement, from the runtime's `restart` event), an answer that is not exact, a 5xx
 * other than 503, an action that did not end as it must, and on a page that stays dead: no
 * exact answer within DEAD_MS of a fault (a page that would need a reload). A request answered
 * with a proper error during a fault (a 503 while the engine is replaced) is counted, not failed.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { Page } from 'playwright';
import { buildInpageTestModel } from '../src/builtin-model/inpage-test-model';
import { startHarness } from '../test/e2e/harness';
import { ACTIONS, act, judge, type ActionKind } from './mixed-actions';
import { truncatedModel } from './soak-faults';
import { sendFromPage, soakRequests } from './soak-traffic';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const SEED = Number(process.env.SOAK_SEED ?? Date.now() % 1_000_000_000);
/** A request may take this long after it was sent, or after the engine it waited for came back. */
const ANSWER_MS = 5000;
/** The page's own bound on a request (the SW's handover bound is 60 s). */
const BOUND_MS = 65_000;
/** A page with no exact answer this long after a fault stayed dead (it would need a reload). */
const DEAD_MS = 20_000;
const LANES = 2;
const DIR = 'dist/test-models';
const CUTS = [0.5, 0.02, 0.99, 0.001];

interface Row {
  source: string;
  outcome: string;
  verdict: 'ok' | 'error' | 'bad';
  startedAt: number;
  endedAt: number;
}

/** mulberry32, for the actions' order (the traffic has its own generator, from the same seed). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
console.log(`mixed soak: SOAK_SEED=${SEED} SOAK_SECONDS=${SECONDS}`);

const model = buildInpageTestModel();
await mkdir(DIR, { recursive: true });
const badUrls = await Promise.all(
  CUTS.map(async (cut, i) => {
    await writeFile(`${DIR}/mixed-bad-${i}.gguf`, truncatedModel(model, cut));
    return `/test-models/mixed-bad-${i}.gguf`;
  }),
);

const harness = await startHarness();
const rows: Row[] = [];
const faults: Array<{ kind: ActionKind; at: number }> = [];
let failed = false;
try {
  const { page } = await harness.openPage();
  const start = Date.now();
  await page.evaluate(() => {
    const restarts: number[] = [];
    Reflect.set(window, 'soakRestarts', restarts);
    (window.inpage as unknown as EventTarget).addEventListener('restart', () => restarts.push(Date.now()));
  });
  // SOAK_VERBOSE=1: the page's console and each action as it ends (to see where a page went wrong).
  const verbose = process.env.SOAK_VERBOSE === '1';
  const at = () => `${((Date.now() - start) / 1000).toFixed(1)} s`;
  if (verbose) {
    page.on('console', (message) => console.log(`[${at()}] console: ${message.text().slice(0, 300)}`));
    await page.evaluate(() => {
      const runtime = window.inpage as unknown as EventTarget;
      for (const type of ['crash', 'restart', 'leader', 'error'])
        runtime.addEventListener(type, (event) =>
          console.log(`runtime ${type}: ${String((event as CustomEvent).detail ?? '').slice(0, 200)}`),
        );
      window.inpage.onProgress((progress) =>
        console.log(`progress ${progress.model} ${progress.phase} ${progress.fraction}`),
      );
    });
  }
  const endAt = start + SECONDS * 1000;
  const rand = random(SEED);
  const requests = soakRequests(SEED);
  const record = (source: string, startedAt: number, outcome: { verdict: Row['verdict']; detail: string }) =>
    rows.push({ source, outcome: outcome.detail, verdict: outcome.verdict, startedAt, endedAt: Date.now() });

  const lane = async (index: number) => {
    while (Date.now() < endAt) {
      const request = requests();
      const startedAt = Date.now();
      const outcome = await sendFromPage(page, request, BOUND_MS)
        .then((answer) => judge(request, answer))
        .catch((error: unknown) => ({ verdict: 'bad' as const, detail: `page: ${String(error).slice(0, 80)}` }));
      record(`lane ${index}`, startedAt, outcome);
      if (verbose && outcome.verdict !== 'ok')
        console.log(`[${at()}] lane ${index}: ${outcome.verdict} ${outcome.detail}`);
      await sleep(outcome.verdict === 'ok' ? 50 : 200);
    }
  };

  const actor = async () => {
    for (let n = 0; Date.now() < endAt; n++) {
      const kind = ACTIONS[Math.floor(rand() * ACTIONS.length)] as ActionKind;
      const badUrl = badUrls[n % badUrls.length] ?? '';
      const startedAt = Date.now();
      if (kind === 'kill mid-stream' || kind === 'stop sw' || kind === 'bad load') faults.push({ kind, at: startedAt });
      const outcome = await act(page as Page, kind, requests(), badUrl, BOUND_MS).catch((error: unknown) => ({
        verdict: 'bad' as const,
        detail: `threw ${String(error).slice(0, 120)}`,
        ms: Date.now() - startedAt,
      }));
      record(kind, startedAt, outcome);
      if (verbose) console.log(`[${at()}] ${kind}: ${outcome.verdict} ${outcome.detail} (${outcome.ms} ms)`);
      await sleep(200 + rand() * 1300);
    }
  };

  await Promise.all([actor(), ...Array.from({ length: LANES }, (_, i) => lane(i))]);
  // The page must still serve after the last fault.
  const finalAt = Date.now();
  for (let served = false; !served && Date.now() - finalAt < DEAD_MS; await sleep(250)) {
    const request = requests();
    const outcome = judge(request, await sendFromPage(page, request, BOUND_MS));
    record('final', Date.now(), outcome);
    served = outcome.verdict === 'ok';
  }

  // A request that outlived ANSWER_MS is late unless it waited for an engine that came back within its span.
  const restarts = await page.evaluate(() => Reflect.get(window, 'soakRestarts') as number[]);
  for (const row of rows) {
    if (!['ok', 'error'].includes(row.verdict) || row.source === 'kill mid-stream' || row.source === 'abort') continue;
    const back = Math.max(row.startedAt, ...restarts.filter((at) => at <= row.endedAt));
    if (row.endedAt - back > ANSWER_MS) {
      row.verdict = 'bad';
      row.outcome = `LATE (${row.endedAt - row.startedAt} ms): ${row.outcome}`;
    }
  }
  const exact = rows.filter((row) => row.outcome === '200 exact').sort((a, b) => a.endedAt - b.endedAt);
  const recoveries = faults.map((fault) => {
    const next = exact.find((row) => row.startedAt >= fault.at);
    return { ...fault, ms: next ? next.endedAt - fault.at : null };
  });
  const kills = recoveries.filter((fault) => fault.kind === 'kill mid-stream');
  const dead = recoveries.filter((fault) => fault.ms === null || fault.ms > DEAD_MS);
  const bad = rows.filter((row) => row.verdict === 'bad');
  const outcomes: Record<string, Record<string, number>> = {};
  for (const row of rows) {
    const group = (outcomes[row.source.startsWith('lane') ? 'traffic' : row.source] ??= {});
    group[row.outcome.replace(/closed \d worker\(s\); /, '')] =
      (group[row.outcome.replace(/closed \d worker\(s\); /, '')] ?? 0) + 1;
  }
  const killMs = kills.map((kill) => kill.ms ?? Infinity).sort((a, b) => a - b);
  failed = bad.length > 0 || dead.length > 0;
  console.log(
    JSON.stringify(
      {
        seed: SEED,
        seconds: SECONDS,
        requests: rows.length,
        slowestMs: Math.max(
          0,
          ...rows.filter((row) => row.source.startsWith('lane')).map((row) => row.endedAt - row.startedAt),
        ),
        outcomes,
        restarts: restarts.length,
        kills: kills.length,
        recovered: kills.filter((kill) => kill.ms !== null && kill.ms <= DEAD_MS).length,
        killToExactMs: { min: killMs[0], median: killMs[Math.floor(killMs.length / 2)], max: killMs.at(-1) },
        dead: dead.map(
          (fault) => `${fault.kind} at ${((fault.at - start) / 1000).toFixed(1)} s: ${fault.ms ?? 'never'}`,
        ),
      },
      null,
      2,
    ),
  );
  for (const row of bad.slice(0, 20))
    console.log(`  bad: ${row.source} at ${((row.startedAt - start) / 1000).toFixed(1)} s: ${row.outcome}`);
  console.log(
    `mixed soak (SOAK_SEED=${SEED}): ${rows.length} actions and requests, ${bad.length} bad, ${dead.length} faults the page did not recover from: ${failed ? 'FAIL' : 'PASS'}`,
  );
} finally {
  await harness
    .close()
    .catch((error: unknown) => console.log(`uncaught errors in the page: ${String(error).slice(0, 2000)}`));
  await rm(DIR, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
