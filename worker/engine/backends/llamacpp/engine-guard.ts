/**
 * Keeps a failing engine from taking requests down with it. An error the glue reports (a bad
 * prompt, a grammar it cannot read) is that request's own. Anything else thrown from inside
 * the wasm (an `abort()` in llama.cpp, a trap, running out of memory) leaves the module in an
 * unknown state: the model is marked crashed, and this and every later request get a 503
 * naming it, instead of answers from a broken heap.
 */
import { OpenAIError, ServiceUnavailableError } from '#core/domain/errors';
import { EngineError } from './llama-wasm';

export class EngineGuard {
  private crash: string | null = null;
  private retired = false;

  constructor(private readonly model: string) {}

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
    this.crash = error instanceof Error ? error.message : String(error);
    return new ServiceUnavailableError(
      `The llama.cpp engine of '${this.model}' crashed (${this.crash}); load the model again.`,
      'engine_crashed',
      { cause: error },
    );
  }
}
