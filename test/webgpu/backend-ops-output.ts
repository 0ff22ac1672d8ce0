/**
 * Reads the console output of llama.cpp's test-backend-ops (`test` mode: each case run on a
 * backend and on the CPU backend, compared) and judges it for `npm run test:webgpu-ops`: the
 * WebGPU backend must have been tested, every case it ran must pass and raise no WebGPU error,
 * except as expectedFailure allows (the test build's f16 rewrite, a known upstream limit), and
 * test-backend-ops' own count must match the cases read.
 */

export type CaseStatus = 'ok' | 'fail' | 'not supported' | 'skipped';

export interface BackendOpsCase {
  op: string;
  params: string;
  status: CaseStatus;
  /** What was printed before the status (`compare failed`, an error), or the reason not supported. */
  note: string;
  /** The WebGPU errors logged while it ran (the test build logs them instead of aborting). */
  deviceErrors: string[];
}

export interface BackendOpsRun {
  /** The devices test-backend-ops named (`Backend 1/2: WebGPU`). */
  devices: string[];
  cases: BackendOpsCase[];
  /** Its own `N/M tests passed` of the last backend tested, if printed. */
  summary: { passed: number; total: number } | null;
  /** WebGPU errors logged after the last case. */
  strayDeviceErrors: string[];
}

/** Each output line, with partial lines (a case's name is flushed before its status) joined. */
export function joinLines(chunks: readonly string[]): string[] {
  const lines: string[] = [];
  let pending = '';
  for (const chunk of chunks) {
    const text = pending + chunk.replace(/\x1b\[[0-9;]*m/g, '');
    pending = '';
    if (/ {2}[A-Z][A-Z0-9_]*\(.*\): $/.test(text)) pending = text;
    else lines.push(...text.split('\n'));
  }
  if (pending) lines.push(pending);
  return lines;
}

// A case's line: `  OP(params): STATUS`, after what it printed first when it failed (`[OP] ERR = …`).
const CASE = /^(.*?) {2}([A-Z][A-Z0-9_]*)\((.*)\): (.*)$/;

const DEVICE_ERROR = 'ggml_webgpu: Device error!';

export function parseBackendOps(chunks: readonly string[]): BackendOpsRun {
  const run: BackendOpsRun = { devices: [], cases: [], summary: null, strayDeviceErrors: [] };
  // A case's line is printed whole when it ends, after the errors logged while it ran.
  let deviceErrors: string[] = [];
  for (const line of joinLines(chunks)) {
    if (line.includes(DEVICE_ERROR)) deviceErrors.push(line.slice(line.indexOf(DEVICE_ERROR)));
    const device = /^Backend \d+\/\d+: (.+)$/.exec(line);
    if (device?.[1]) run.devices.push(device[1]);
    const summary = /^ {2}(\d+)\/(\d+) tests passed$/.exec(line);
    if (summary) run.summary = { passed: Number(summary[1]), total: Number(summary[2]) };
    const match = CASE.exec(line);
    if (!match) continue;
    const [, before = '', op = '', params = '', rest = ''] = match;
    const tail = rest.trim();
    const status: CaseStatus | null = tail.startsWith('not supported')
      ? 'not supported'
      : tail.startsWith('skipping')
        ? 'skipped'
        : tail.endsWith('OK')
          ? 'ok'
          : tail.endsWith('FAIL')
            ? 'fail'
            : null;
    if (status === null) continue;
    const own = status === 'ok' ? tail.slice(0, -2) : status === 'fail' ? tail.slice(0, -4) : tail;
    const note = `${before.trim()} ${own.trim()}`.trim();
    run.cases.push({ op, params, status, note, deviceErrors });
    deviceErrors = [];
  }
  run.strayDeviceErrors = deviceErrors;
  return run;
}

/**
 * A WebGPU error upstream ggml-webgpu is known to raise: a dispatch of more than 65,535
 * workgroups in X (WebGPU's default maxComputeWorkgroupsPerDimension, SwiftShader's too), as its
 * GET_ROWS makes for more than 65,535 rows.
 */
const KNOWN_DEVICE_ERROR = /Dispatch workgroup count X \(\d+\) exceeds max compute workgroups per dimension \(65535\)/;
/** What follows an error: what was made from the invalid object (a bind group, the command buffer) is refused too. */
const INVALID_AFTER = /\[Invalid [A-Za-z]+( "[^"]*")?\] is invalid due to a previous error/;
/**
 * The error the f16 rewrite itself causes: a shader's f16 array is read as f32, so the smallest
 * binding it accepts is twice an F16 tensor's bytes (8 bytes of F16 for a 16-byte vec4<f32>).
 */
const REWRITE_DEVICE_ERROR = /Binding size \(\d+\) of .* is smaller than the minimum binding size \(\d+\)/;

/**
 * The ops whose shader reads a quantized block through its WGSL struct: GET_ROWS alone
 * (ggml-webgpu-shader-lib.hpp's get_rows pipeline; the others read blocks as u32 words).
 */
const STRUCT_BLOCK_OPS = new Set(['GET_ROWS']);

/** F16 tensors a case's parameters do not name by type: FLASH_ATTN_EXT's mask (mask=1) is F16. */
const F16_UNNAMED: Record<string, RegExp> = { FLASH_ATTN_EXT: /(^|,)mask=1(,|$)/ };

/**
 * Why a case may fail here, or null. `f16BlockTypes` null: the build computes f16 as f16 (no
 * rewrite: WEBGPU_OPS_F16=native, on an adapter with shader-f16), so only the dispatch limit is
 * allowed. Otherwise: `f16` for a case with a tensor the test build's shaders
 * cannot read (build-backend-ops.sh computes f16 as f32): a parameter `…=f16` (type_a=f16,
 * type_K=f16, m_prec=f16, …) or F16_UNNAMED, 4 bytes read for each 2-byte element, or, in
 * STRUCT_BLOCK_OPS, `…=TYPE` for a quantized type in `f16BlockTypes` (its block is read through a
 * WGSL struct with an f16 field, whose layout is then not the block's), with no WebGPU error but REWRITE_DEVICE_ERROR's; `dispatch limit` for a case that raised only the known upstream error above.
 */
export function expectedFailure(
  testCase: BackendOpsCase,
  f16BlockTypes: ReadonlySet<string> | null,
): 'f16' | 'dispatch limit' | null {
  const { deviceErrors } = testCase;
  if (
    deviceErrors.some((error) => KNOWN_DEVICE_ERROR.test(error)) &&
    deviceErrors.every((error) => KNOWN_DEVICE_ERROR.test(error) || INVALID_AFTER.test(error))
  ) {
    return 'dispatch limit';
  }
  if (f16BlockTypes === null) return null;
  if (!deviceErrors.every((error) => REWRITE_DEVICE_ERROR.test(error) || INVALID_AFTER.test(error))) return null;
  const values = testCase.params.split(',').map((param) => param.slice(param.indexOf('=') + 1).toLowerCase());
  const f16Block = STRUCT_BLOCK_OPS.has(testCase.op) && values.some((value) => f16BlockTypes.has(value));
  const f16Tensor = f16Block || values.includes('f16');
  return f16Tensor || F16_UNNAMED[testCase.op]?.test(testCase.params) ? 'f16' : null;
}

export interface Verdict {
  counts: Record<CaseStatus, number>;
  /** The failed cases expectedFailure allows, by its reason. */
  expectedFailures: { f16: number; 'dispatch limit': number };
  /** Why the run fails; empty when it passes. */
  problems: string[];
}

/**
 * `exitStatus`: what the page reported (main's return code, or an abort or exception);
 * `f16BlockTypes`: as expectedFailure's (null: f16 computed as f16, every F16 case must pass).
 */
export function judge(
  run: BackendOpsRun,
  exitStatus: unknown,
  f16BlockTypes: ReadonlySet<string> | null,
  backend = 'WebGPU',
): Verdict {
  const counts: Record<CaseStatus, number> = { ok: 0, fail: 0, 'not supported': 0, skipped: 0 };
  for (const testCase of run.cases) counts[testCase.status]++;
  const failures = run.cases.filter((testCase) => testCase.status === 'fail');
  const expectedFailures = { f16: 0, 'dispatch limit': 0 };
  const problems: string[] = [];
  if (!run.devices.includes(backend))
    problems.push(`no ${backend} device was tested (devices: ${run.devices.join(', ') || 'none'})`);
  if (counts.ok === 0) problems.push('no case passed');
  for (const testCase of run.cases) {
    const reason = expectedFailure(testCase, f16BlockTypes);
    if (reason && testCase.status === 'fail') expectedFailures[reason]++;
    else if (testCase.status === 'fail' || (testCase.deviceErrors.length > 0 && !reason)) {
      const errors = testCase.deviceErrors.join(' | ');
      problems.push(
        `${testCase.status.toUpperCase()} ${testCase.op}(${testCase.params}) ${testCase.note} ${errors}`.trim(),
      );
    }
  }
  for (const error of run.strayDeviceErrors) problems.push(`after the last case: ${error}`);
  if (!run.summary) problems.push('no "N/M tests passed" line');
  else if (run.summary.passed !== counts.ok || run.summary.total !== counts.ok + counts.fail) {
    problems.push(
      `its count ${run.summary.passed}/${run.summary.total} is not the ${counts.ok} passed of ${counts.ok + counts.fail} cases read`,
    );
  }
  if (exitStatus !== 0 && exitStatus !== 1) problems.push(`exit status ${String(exitStatus)}`);
  if (exitStatus === 0 && failures.length > 0) problems.push('exit status 0 with failed cases');
  return { counts, expectedFailures, problems };
}
