/**
 * Keeps a failing engine from taking requests down with it. An error the glue reports (a bad
 * prompt, a grammar it cannot read) is that request's own. Anything else thrown from inside
 * the wasm (an `abort()` in llama.cpp, a trap, running out of memory) leaves the module in an
 * unknown state: the model is marked crashed, this and every later request get a 503
 * `engine_crashed` naming it instead of answers from a broken heap, and `onCrash` is told
 * once (by default the worker retires: the page replaces it and loads the model again).
 */
import { OpenAIError, ServiceUnavailableError } from '#core/domain/errors';
import { retireWorker } from '../../retire-worker';
import { EngineError } from './llama-wasm';

export class EngineGuard {
  private crash: string | null = null;
  private retired = false;

  constructor(
    private readonly model: string,
    private readonly onCrash: (reason: string) => void = retireWorker,
  ) {}

  /** Runs one engine step (or a few), mapping a crash. */
  call<T>(step: () => T): T {
    this.checkUsable();
    try {
      return step();
    } catch (error) {
      throw this.map(error);
    }
  }

  /** Runs a generation, mapping a crash at any step. */
  async *stream<T>(start: () => AsyncIterable<T>): AsyncIterable<T> {
    this.checkUsable();
    try {
      yield* start();
    } catch (error) {
      throw this.map(error);
    }
  }

  /** After unload: the module is dropped, and nothing may call it again. */
  retire(): void {
    this.retired = true;
  }

  private checkUsable(): void {
    if (this.crash !== null)
      throw new ServiceUnavailableError(
        `The llama.cpp engine of '${this.model}' crashed (${this.crash}); load the model again.`,
        'engine_crashed',
      );
    if (this.retired) throw new ServiceUnavailableError(`'${this.model}' was unloaded.`, 'model_not_loaded');
  }

  private map(error: unknown): Error {
    if (error instanceof OpenAIError || error instanceof EngineError) return error;
    if (this.crash === null) {
      this.crash = error instanceof Error ? error.message : String(error);
      this.onCrash(`'${this.model}': ${this.crash}`);
    }
    return new ServiceUnavailableError(
      `The llama.cpp engine of '${this.model}' crashed (${this.crash}); load the model again.`,
      'engine_crashed',
      { cause: error },
    );
  }
}
