/**
 * The glue's exports that may wait for the GPU (native/*.cpp's `IP_EXPORT_MAY_SUSPEND`: the
 * WebGPU link's `-sJSPI_EXPORTS`, scripts/engine/link-engine.sh) are the ones engine-module.ts
 * types `MaySuspend` (LlamaWasm awaits them): an export suspending in the WebGPU build that
 * JavaScript calls as synchronous would hand back a promise where a status is read; one the
 * TypeScript awaits but the link leaves out would stop with `SuspendError` at its first wait.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const glue = readdirSync('native')
  .filter((name) => name.endsWith('.cpp'))
  .map((name) => readFileSync(`native/${name}`, 'utf8'))
  .join('\n');

/** `ip_*` names declared after `marker` at a line's start (the marker then a space). */
const declared = (marker: string) =>
  [...glue.matchAll(new RegExp(`^${marker} [^(]*?\\b(ip_\\w+)\\(`, 'gm'))].map((match) => match[1]).sort();

/** engine-module.ts's `_ip_*` members and what each returns. */
function members(): Map<string, string> {
  const source = readFileSync('worker/engine/backends/llamacpp/engine-module.ts', 'utf8');
  const found = new Map<string, string>();
  for (const match of source.matchAll(/^ {2}_(ip_\w+)\(([^)]*)\):\s*([^;]+);/gm))
    found.set(match[1] ?? '', (match[3] ?? '').trim());
  return found;
}

describe('the engine exports that may suspend', () => {
  it('are the same in the glue (IP_EXPORT_MAY_SUSPEND) and in engine-module.ts (MaySuspend)', () => {
    const typed = [...members()].filter(([, returns]) => returns.startsWith('MaySuspend')).map(([name]) => name);
    expect(typed.sort()).toEqual(declared('IP_EXPORT_MAY_SUSPEND'));
  });

  it('cover every decode, load and state call, and every glue export is typed', () => {
    const suspending = declared('IP_EXPORT_MAY_SUSPEND');
    for (const name of ['ip_load', 'ip_begin', 'ip_prefill', 'ip_step', 'ip_sample', 'ip_push', 'ip_state_save'])
      expect(suspending).toContain(name);
    const all = [...declared('IP_EXPORT'), ...suspending].sort();
    expect([...members().keys()].sort()).toEqual(all);
  });
});
