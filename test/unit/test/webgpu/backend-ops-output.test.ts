import { describe, expect, it } from 'vitest';
import { expectedFailure, joinLines, judge, parseBackendOps } from '../../../webgpu/backend-ops-output';

const MM = 'MUL_MAT(type_a=f32,type_b=f32,m=16,n=1,k=256,bs=[1,1],nr=[1,1],per=[0,1,2,3],v=0,o=1)';
const MM16 = 'MUL_MAT(type_a=f16,type_b=f32,m=16,n=1,k=256,bs=[1,1],nr=[1,1],per=[0,1,2,3],v=0,o=1)';
const ROWS = 'GET_ROWS(type=q4_0,n=256,m=5,r=4,be1=1,be2=1,v=0)';
const REWRITE =
  'ggml_webgpu: Device error! Binding size (8) of [Buffer] is smaller than the minimum binding size (16).';
const INVALID = 'ggml_webgpu: Device error! [Invalid BindGroup "x"] is invalid due to a previous error.';
const DISPATCH =
  'ggml_webgpu: Device error! Dispatch workgroup count X (70000) exceeds max compute workgroups per dimension (65535).';
const OTHER = 'ggml_webgpu: Device error! Out of memory.';

/** test-backend-ops' output as the page receives it: a case's name is flushed before its status. */
function output(...lines: string[]): string[] {
  return ['Testing 2 devices\n\nBackend 1/2: WebGPU\n', '  Device description: SwiftShader\n', ...lines];
}

describe('parseBackendOps', () => {
  it('joins a case name flushed before its status, and drops colour codes', () => {
    expect(joinLines([`  ${MM}: `, '\x1b[1;32mOK\x1b[0m\n'])).toEqual([`  ${MM}: OK`, '']);
  });

  it('reads devices, cases with their status and note, the summary, and device errors by case', () => {
    const run = parseBackendOps(
      output(
        `  ${MM}: `,
        'OK\n',
        `${REWRITE}\n`,
        `[MUL_MAT] NMSE = 0.900000000 > 0.000500000   ${MM16}: `,
        'FAIL\n',
        '  ROPE(type=f32): not supported [WebGPU]\n',
        '  3/4 tests passed\n',
        `${OTHER}\n`,
      ),
    );
    expect(run.devices).toEqual(['WebGPU']);
    expect(run.cases.map((c) => [c.op, c.status])).toEqual([
      ['MUL_MAT', 'ok'],
      ['MUL_MAT', 'fail'],
      ['ROPE', 'not supported'],
    ]);
    expect(run.cases[1]?.note).toBe('[MUL_MAT] NMSE = 0.900000000 > 0.000500000');
    expect(run.cases[1]?.deviceErrors).toEqual([REWRITE]);
    expect(run.cases[0]?.deviceErrors).toEqual([]);
    expect(run.summary).toEqual({ passed: 3, total: 4 });
    expect(run.strayDeviceErrors).toEqual([OTHER]);
  });
});

describe('expectedFailure', () => {
  const parsed = (line: string, ...errors: string[]) =>
    parseBackendOps(output(...errors.map((e) => `${e}\n`), `${line}: FAIL\n`)).cases[0]!;

  it("allows an f16 tensor named by a parameter, or FLASH_ATTN_EXT's mask, with only the rewrite's errors", () => {
    expect(expectedFailure(parsed(`  ${MM16}`, REWRITE, INVALID), new Set())).toBe('f16');
    expect(expectedFailure(parsed('  FLASH_ATTN_EXT(hsk=64,hsv=64,nh=4,mask=1,type_K=f32)'), new Set())).toBe('f16');
    expect(expectedFailure(parsed(`  ${MM}`, REWRITE), new Set())).toBeNull();
    expect(expectedFailure(parsed(`  ${MM16}`, OTHER), new Set())).toBeNull();
  });

  it('allows no f16 failure where the build computes f16 natively (null), only the dispatch limit', () => {
    expect(expectedFailure(parsed(`  ${MM16}`, REWRITE, INVALID), null)).toBeNull();
    expect(expectedFailure(parsed('  FLASH_ATTN_EXT(hsk=64,hsv=64,nh=4,mask=1,type_K=f32)'), null)).toBeNull();
    expect(expectedFailure(parsed(`  ${ROWS}`), null)).toBeNull();
    expect(expectedFailure(parsed(`  ${MM}`, DISPATCH, INVALID), null)).toBe('dispatch limit');
  });

  it('allows a struct-read block type only in GET_ROWS, and the known dispatch limit', () => {
    expect(expectedFailure(parsed(`  ${ROWS}`), new Set(['q4_0']))).toBe('f16');
    expect(expectedFailure(parsed(`  ${ROWS}`), new Set(['q8_0']))).toBeNull();
    expect(expectedFailure(parsed(`  ${MM}`, DISPATCH, INVALID), new Set())).toBe('dispatch limit');
    expect(expectedFailure(parsed(`  ${MM}`, DISPATCH, OTHER), new Set())).toBeNull();
  });
});

describe('judge', () => {
  const run = (...lines: string[]) => parseBackendOps(output(...lines));

  it('passes a run whose failures are all expected, counting them by reason', () => {
    const verdict = judge(run(`  ${MM}: OK\n`, `  ${MM16}: FAIL\n`, '  1/2 tests passed\n'), 1, new Set());
    expect(verdict.problems).toEqual([]);
    expect(verdict.counts).toEqual({ ok: 1, fail: 1, 'not supported': 0, skipped: 0 });
    expect(verdict.expectedFailures).toEqual({ f16: 1, 'dispatch limit': 0 });
  });

  it('fails an unexpected failure, a passing case with a device error, a wrong count and a bad exit', () => {
    const verdict = judge(run(`  ${MM}: FAIL\n`, `${OTHER}\n`, `  ${MM}: OK\n`, '  2/2 tests passed\n'), 0, new Set());
    expect(verdict.problems).toEqual([
      expect.stringMatching(/^FAIL MUL_MAT\(type_a=f32/),
      expect.stringMatching(/^OK MUL_MAT\(type_a=f32.*Out of memory/),
      'its count 2/2 is not the 1 passed of 2 cases read',
      'exit status 0 with failed cases',
    ]);
  });

  it('fails a run without the WebGPU device, without a passing case or without its summary', () => {
    const verdict = judge(parseBackendOps(['Backend 1/1: CPU\n']), 'abort', new Set());
    expect(verdict.problems).toEqual([
      'no WebGPU device was tested (devices: CPU)',
      'no case passed',
      'no "N/M tests passed" line',
      'exit status abort',
    ]);
  });
});
