import { describe, expect, it } from 'vitest';
import type { LoadProgress } from '../../../../src/core/domain/model-spec';
import { steadyProgress } from '../../../../worker/engine/steady-progress';

/** The fractions `steadyProgress` passes on for `reports` ([phase, fraction] pairs). */
function passed(reports: Array<[LoadProgress['phase'], number | null]>): Array<number | null> {
  const out: Array<number | null> = [];
  const report = steadyProgress((progress) => out.push(progress.fraction));
  for (const [phase, fraction] of reports) report({ model: 'm', phase, fraction });
  return out;
}

describe('steadyProgress', () => {
  it("WebLLM's reload (weights 0..1, then shader modules 0..1): the second step is indeterminate until it passes the first", () => {
    expect(
      passed([
        ['load', 0],
        ['load', 0.5],
        ['load', 1],
        ['load', 0.25],
        ['load', 0.75],
        ['load', 1],
        ['ready', 1],
      ]),
    ).toStrictEqual([0, 0.5, 1, null, null, 1, 1]);
  });

  it('a new phase starts again from 0; null passes as null', () => {
    expect(
      passed([
        ['download', null],
        ['download', 0.5],
        ['download', 0.4],
        ['download', 0.6],
        ['load', 0],
        ['load', null],
        ['load', 0.1],
      ]),
    ).toStrictEqual([null, 0.5, null, 0.6, 0, null, 0.1]);
  });

  it('keeps the rest of each report', () => {
    const out: LoadProgress[] = [];
    const report = steadyProgress((progress) => out.push(progress));
    report({ model: 'm', phase: 'load', fraction: 1, text: 'weights' });
    report({ model: 'm', phase: 'load', fraction: 0, text: 'shaders' });
    expect(out.at(-1)).toStrictEqual({ model: 'm', phase: 'load', fraction: null, text: 'shaders' });
  });
});
