/**
 * `npm run soak:tabs` (not part of `npm test`): three tabs of one origin send mixed traffic (the
 * four POST routes, streamed and not, `bench/soak-traffic.ts`) for SOAK_MINUTES (default 10)
 * while, every SOAK_FAULT_EVERY_S seconds (default 60), one fault of `bench/soak-faults.ts` is
 * injected in rotation (SOAK_FAULTS narrows it, e.g. `SOAK_FAULTS='load bad model'`). At the
 * end it prints the counts (by route, by outcome, by the fault before each request, and how
 * soon after each fault an exact answer came) and fails (exit 1) when a request hung past its
 * bound, a successful answer was not exact, a status was a 5xx other than 503, or a fault could
 * not be done. The requests of a tab that a fault closes end with it (`ended with its tab`).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { Page } from 'playwright';
import { buildInpageTestModel } from '../src/builtin-model/inpage-test-model';
import { startHarness } from '../test/e2e/harness';
import { FAULTS, injectFault, openTab, truncatedModel, type FaultKind, type Tabs } from './soak-faults';
import { isExact, sendFromPage, soakRequests, type SoakAnswer } from './soak-traffic';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const FAULT_EVERY_MS = Number(process.env.SOAK_FAULT_EVERY_S ?? 60) * 1000;
const SEED = Number(process.env.SOAK_SEED ?? 20261201);
const TABS = 3;
const LANES_PER_TAB = 2;
/** A request's bound in the page (the handover bound is 60 s), and the watchdog's beyond it. */
const BOUND_MS = 90_000;
const WATCHDOG_MS = BOUND_MS + 30_000;
/** Each lane's pause between requests: traffic, not a flood, on a shared 2-core machine. */
const PAUSE_MS = 100;
/** The faults in rotation (SOAK_FAULTS, comma-separated, to try a few of them; default all four). */
const ROTATION: readonly FaultKind[] = process.env.SOAK_FAULTS
  ? FAULTS.filter((kind) => process.env.SOAK_FAULTS?.split(',').includes(kind))
  : FAULTS;
const DIR = 'dist/test-models';
/** Where the truncated GGUFs are cut, in turn: inside the tensor data, the metadata, the data's last bytes, the header. */
const CUTS = [0.5, 0.02, 0.99, 0.001];

interface Row {
  label: string;
  lane: string;
  fault: string;
  outcome: string;
  ms: number;
  startedAt: number;
}

interface FaultRow {
  kind: string;
  at: number;
  detail: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The outcome's name in the counts: `200 exact`, `503 engine_not_loaded`, `200 error engine_gone`, ... */
function outcomeOf(answer: SoakAnswer, exact: boolean): string {
  if (answer.kind === 'hung') return 'HUNG';
  if (answer.kind === 'network') return `network error (${answer.code})`;
  if (answer.kind === 'ok') return exact ? '200 exact' : '200 NOT EXACT';
  return answer.status === 200 ? `200 then error ${answer.code}` : `${answer.status} ${answer.code}`;
}

function count(rows: Row[], by: (row: Row) => string): Record<string, Record<string, number>> {
  const table: Record<string, Record<string, number>> = {};
  for (const row of rows) {
    const group = (table[by(row)] ??= {});
    group[row.outcome] = (group[row.outcome] ?? 0) + 1;
  }
  return table;
}

const model = buildInpageTestModel();
await mkdir(DIR, { recursive: true });
const badUrls = await Promise.all(
  CUTS.map(async (cut, i) => {
    await writeFile(`${DIR}/soak-bad-${i}.gguf`, truncatedModel(model, cut));
    return `/test-models/soak-bad-${i}.gguf`;
  }),
);

const harness = await startHarness();
const rows: Row[] = [];
const faults: FaultRow[] = [];
let failed = false;
try {
  const { context, page: first } = await harness.openPage();
  const tabs: Tabs = { context, origin: harness.origin, pages: [first] };
  for (let i = 1; i < TABS; i++) tabs.pages.push((await openTab(tabs)).page);
  const start = Date.now();
  const endAt = start + MINUTES * 60_000;
  const next = soakRequests(SEED);
  const faultNow = () => (faults.length === 0 ? 'before any fault' : `after #${faults.length} ${faults.at(-1)?.kind}`);

  const lane = async (slot: number, index: number) => {
    while (Date.now() < endAt) {
      const request = next();
      const page: Page = tabs.pages[slot] as Page;
      const fault = faultNow();
      const startedAt = Date.now();
      let outcome: string;
      let ms: number;
      let watchdog: NodeJS.Timeout | undefined;
      try {
        const answer = await Promise.race([
          sendFromPage(page, request, BOUND_MS),
          new Promise<never>((_, reject) => {
            watchdog = setTimeout(() => reject(new Error('watchdog')), WATCHDOG_MS);
          }),
        ]);
        outcome = outcomeOf(answer, answer.kind === 'ok' && isExact(request, answer));
        ms = answer.ms;
      } catch (error) {
        outcome = String(error).includes('watchdog') ? 'HUNG' : 'ended with its tab';
        ms = Date.now() - startedAt;
      } finally {
        clearTimeout(watchdog);
      }
      const label = `${request.route}${request.stream ? ' SSE' : ''}`;
      rows.push({ label, lane: `tab ${slot} lane ${index}`, fault, outcome, ms, startedAt });
      await sleep(outcome === 'ended with its tab' ? 500 : PAUSE_MS);
    }
  };

  // A fault that takes long (a load that never answers) does not hold back the next one.
  const pending: Array<Promise<void>> = [];
  const injector = async () => {
    for (let k = 1; start + k * FAULT_EVERY_MS < endAt - 5_000; k++) {
      await sleep(start + k * FAULT_EVERY_MS - Date.now());
      const kind = ROTATION[(k - 1) % ROTATION.length] ?? 'close leader tab';
      const fault: FaultRow = { kind, at: Date.now(), detail: 'pending' };
      faults.push(fault);
      const badUrl = badUrls[Math.floor((k - 1) / ROTATION.length) % badUrls.length] ?? '';
      pending.push(
        injectFault(tabs, kind, badUrl)
          .catch((error: unknown) => `failed: ${String(error)}`)
          .then((detail) => {
            fault.detail = detail;
            console.log(`[${((fault.at - start) / 1000).toFixed(0)} s] fault #${k} ${kind}: ${detail}`);
          }),
      );
    }
  };

  await Promise.all([
    injector(),
    ...Array.from({ length: TABS * LANES_PER_TAB }, (_, i) => lane(Math.floor(i / LANES_PER_TAB), i % LANES_PER_TAB)),
  ]);
  await Promise.all(pending);

  const outcomes: Record<string, number> = {};
  for (const row of rows) outcomes[row.outcome] = (outcomes[row.outcome] ?? 0) + 1;
  const recovery = faults.map((fault, i) => {
    const served = rows.find((row) => row.startedAt >= fault.at && row.outcome === '200 exact');
    return {
      fault: `#${i + 1} ${fault.kind}`,
      firstExactAfterMs: served ? served.startedAt + served.ms - fault.at : null,
    };
  });
  const bad = rows.filter(
    (row) => row.outcome === 'HUNG' || row.outcome === '200 NOT EXACT' || /^5(?!03)\d\d /.test(row.outcome),
  );
  // A fault that could not be done (no worker to close, a CDP call that threw) tested nothing.
  const undone = faults.filter((fault) => /^failed|^closed 0 worker/.test(fault.detail));
  failed = bad.length > 0 || undone.length > 0;
  console.log(
    JSON.stringify(
      {
        minutes: MINUTES,
        requests: rows.length,
        slowestMs: Math.round(Math.max(0, ...rows.map((row) => row.ms))),
        outcomes,
        byRoute: count(rows, (row) => row.label),
        byFault: count(rows, (row) => row.fault),
        recovery,
        faults: faults.map(({ kind, detail }) => `${kind}: ${detail}`),
      },
      null,
      2,
    ),
  );
  console.log(
    `soak: ${rows.length} requests in ${MINUTES} min, ${faults.length} faults; ${bad.length} bad (hung, inexact, or 5xx other than 503), ${undone.length} faults not done: ${failed ? 'FAIL' : 'PASS'}`,
  );
  for (const row of bad.slice(0, 10)) console.log(`  bad: ${row.label} ${row.outcome} (${row.fault})`);
} finally {
  await harness
    .close()
    .catch((error: unknown) => console.log(`uncaught errors in the pages: ${String(error).slice(0, 2000)}`));
  await rm(DIR, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
