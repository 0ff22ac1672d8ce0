/**
 * Keeps a failing engine from taking requests down with it. An error the glue reports (a bad
 * prompt, a grammar it cannot read) is that request's own. Anything else thrown from inside
 * the wasm (an `abort()` in llama.cpp, a trap) leaves the module in an unknown state: the model
 * is marked crashed, this and every later request get a 503 `engine_crashed` naming it instead
 * of answers from a broken heap, and `onCrash` is told once (in the engine worker it retires:
 * the page replaces it and loads the model again).
 *
 * Running out of memory takes the same path, whatever llama.cpp made of the failed allocation
 * (a glue error, a C++ exception, a trap): a step during which the heap could not grow is a 503
 * `engine_out_of_memory` with the heap's size, and the model is given up like a crashed one,
 * because a wasm heap never shrinks (a new worker starts with a small one).
 */
import { OpenAIError, ServiceUnavailableError } from '#core/domain/errors';
import { EngineError } from './engine-error';

/** What the guard reads of the engine's memory, and how it runs a section (LlamaWasm has all four). */
export interface GuardedEngine {
  /** A count that grows each time an allocation failed for want of memory. */
  memoryFailures(): number;
  /** The heap's size now, in bytes. */
  heapBytes(): number;
  /** Runs `section` under the engine's lock (engine-lock.ts). */
  exclusive<T>(section: () => T | Promise<T>): Promise<T>;
  /** Selects the slot the per-slot calls act on. */
  use(slot: number): void;
}

const MIB = 1024 * 1024;

export class EngineGuard {
  private crash: OpenAIError | null = null;
  private retired = false;

  constructor(
    private readonly model: string,
    private readonly engine: GuardedEngine,
    private readonly onCrash: (reason: string) => void,
  ) {}

  /** Runs one engine call that never suspends (the vocabulary's, a slot's tokens), mapping a crash. */
  call<T>(step: () => T): T {
    this.checkUsable();
    const failures = this.engine.memoryFailures();
    try {
      return step();
    } catch (error) {
      throw this.map(error, failures);
    }
  }

  /** Runs engine steps inside a section that is running already (slot-steps.ts's tick), mapping a crash. */
  async callAsync<T>(steps: () => Promise<T>): Promise<T> {
    this.checkUsable();
    const failures = this.engine.memoryFailures();
    try {
      return await steps();
    } catch (error) {
      throw this.map(error, failures);
    }
  }

  /**
   * Runs `work` as one section of the engine's lock (engine-lock.ts), mapping a crash inside it,
   * so that a section that was waiting meanwhile finds the engine crashed when its turn comes,
   * and does not run.
   */
  section<T>(work: () => T | Promise<T>): Promise<T> {
    return this.engine.exclusive(() => this.callAsync(async () => work()));
  }

  /** `section`, with slot `slot` selected first: the unit of a slot's calls (docs/design/webgpu-engine.md). */
  onSlot<T>(slot: number, work: () => T | Promise<T>): Promise<T> {
    return this.section(() => {
      this.engine.use(slot);
      return work();
    });
  }

  /** Runs a generation, mapping a crash at any step. */
  async *stream<T>(start: () => AsyncIterable<T>): AsyncIterable<T> {
    this.checkUsable();
    const failures = this.engine.memoryFailures();
    try {
      yield* start();
    } catch (error) {
      throw this.map(error, failures);
    }
  }

  /** After unload: the module is dropped, and nothing may call it again. */
  retire(): void {
    this.retired = true;
  }

  private checkUsable(): void {
    if (this.crash !== null) throw this.crash;
    if (this.retired) throw new ServiceUnavailableError(`'${this.model}' was unloaded.`, 'model_not_loaded');
  }

  /** `error` thrown by a step that began when the memory failure count was `failures`. */
  private map(error: unknown, failures: number): Error {
    if (this.crash !== null) return this.crash;
    const outOfMemory = this.engine.memoryFailures() !== failures;
    if (!outOfMemory && (error instanceof OpenAIError || error instanceof EngineError)) return error;
    const reason = error instanceof Error ? error.message : String(error);
    this.crash = outOfMemory
      ? new ServiceUnavailableError(
          `The llama.cpp engine of '${this.model}' ran out of memory: its heap could not grow past ` +
            `${Math.round(this.engine.heapBytes() / MIB)} MiB (${reason}). The engine is restarted ` +
            'and the model loaded again; a shorter context or a smaller model needs less.',
          'engine_out_of_memory',
          { cause: error },
        )
      : new ServiceUnavailableError(
          `The llama.cpp engine of '${this.model}' crashed (${reason}); load the model again.`,
          'engine_crashed',
          { cause: error },
        );
    this.onCrash(`'${this.model}': ${outOfMemory ? 'out of memory' : reason}`);
    return this.crash;
  }
}
