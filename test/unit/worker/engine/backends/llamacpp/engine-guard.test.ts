import { describe, expect, it } from 'vitest';
import { InvalidRequestError, ServiceUnavailableError } from '#core/domain/errors';
import { EngineGuard } from '../../../../../../worker/engine/backends/llamacpp/engine-guard';
import { EngineError } from '../../../../../../worker/engine/backends/llamacpp/engine-error';
import { EngineLock } from '../../../../../../worker/engine/backends/llamacpp/engine-lock';

/** A guard over a fake heap: `fail()` counts an allocation that failed for want of memory. */
function guarded() {
  let failures = 0;
  const crashes: string[] = [];
  const lock = new EngineLock();
  const memory = {
    memoryFailures: () => failures,
    heapBytes: () => 96 * 1024 * 1024,
    exclusive: <T>(section: () => T | Promise<T>) => lock.exclusive(section),
    use: () => {},
  };
  const guard = new EngineGuard('m', memory, (reason) => crashes.push(reason));
  return { guard, crashes, fail: () => failures++ };
}

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof ServiceUnavailableError || error instanceof InvalidRequestError
      ? error.code
      : (error as Error).name;
  }
  return 'no error';
};

describe('EngineGuard', () => {
  it("passes the glue's own errors and the request's errors through, and stays usable", () => {
    const { guard, crashes } = guarded();
    expect(
      codeOf(() =>
        guard.call(() => {
          throw new EngineError('the prompt is empty');
        }),
      ),
    ).toBe('EngineError');
    expect(
      codeOf(() =>
        guard.call(() => {
          throw new InvalidRequestError('bad', 'prompt', 'invalid_value');
        }),
      ),
    ).toBe('invalid_value');
    expect(guard.call(() => 7)).toBe(7);
    expect(crashes).toEqual([]);
  });

  it('takes anything else for a crash: once told, and every later call refused with engine_crashed', () => {
    const { guard, crashes } = guarded();
    expect(
      codeOf(() =>
        guard.call(() => {
          throw new WebAssembly.RuntimeError('unreachable');
        }),
      ),
    ).toBe('engine_crashed');
    expect(codeOf(() => guard.call(() => 1))).toBe('engine_crashed');
    expect(crashes).toEqual(["'m': unreachable"]);
  });

  it('takes any failure of a step during which an allocation failed for out of memory, even a glue error', () => {
    const { guard, crashes, fail } = guarded();
    let message = '';
    try {
      guard.call(() => {
        fail();
        throw new EngineError('llama_decode failed (-2)');
      });
    } catch (error) {
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect((error as ServiceUnavailableError).code).toBe('engine_out_of_memory');
      message = (error as Error).message;
    }
    expect(message).toMatch(/ran out of memory: its heap could not grow past 96 MiB \(llama_decode failed \(-2\)\)/);
    expect(crashes).toEqual(["'m': out of memory"]);
    expect(codeOf(() => guard.call(() => 1))).toBe('engine_out_of_memory');
  });

  it('counts only what failed during the step: an earlier failure does not make a later glue error out of memory', () => {
    const { guard, crashes, fail } = guarded();
    fail();
    expect(
      codeOf(() =>
        guard.call(() => {
          throw new EngineError('the prompt is longer than the context');
        }),
      ),
    ).toBe('EngineError');
    expect(crashes).toEqual([]);
  });

  it('maps a stream the same way, at any of its steps', async () => {
    const { guard, fail } = guarded();
    async function* run() {
      yield 1;
      fail();
      throw new Error('std::bad_alloc');
    }
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const value of guard.stream(run)) seen.push(value);
      })(),
    ).rejects.toMatchObject({ code: 'engine_out_of_memory' });
    expect(seen).toEqual([1]);
  });

  it("maps a section's crash after its awaits; a section queued behind it never runs, and gets the crash", async () => {
    const { guard, crashes } = guarded();
    let ranAfter = false;
    const crashing = guard.section(async () => {
      await Promise.resolve();
      throw new WebAssembly.RuntimeError('memory access out of bounds');
    });
    const queued = guard.section(() => {
      ranAfter = true;
      return 1;
    });
    await expect(crashing).rejects.toMatchObject({ code: 'engine_crashed' });
    // Asked for before the crash: its turn came after it, on a crashed engine.
    await expect(queued).rejects.toMatchObject({ code: 'engine_crashed' });
    expect(ranAfter).toBe(false);
    await expect(guard.section(() => 2)).rejects.toMatchObject({ code: 'engine_crashed' });
    expect(crashes).toEqual(["'m': memory access out of bounds"]);
  });
});
