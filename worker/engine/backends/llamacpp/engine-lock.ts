/**
 * One engine instance's sections, one at a time (docs/design/webgpu-engine.md). In the WebGPU
 * variant a call that decodes may suspend (JSPI) while the GPU works, and JavaScript runs on
 * meanwhile: another request could select another slot (`use`) and decode into the context the
 * suspended call is using. llama.cpp is not re-entrant, so whatever selects a slot and then
 * makes its calls, or makes a call that may suspend, runs as one section of this lock: it
 * starts once the section before it has settled, in the order asked (FIFO), and a failed
 * section lets the next one run.
 *
 * In the CPU variants nothing suspends, so a section runs to its end within microtasks, and a
 * section asked for while none runs starts at once, inside the call.
 */
export class EngineLock {
  private running = false;
  private readonly waiting: Array<() => void> = [];

  /** Whether a section is running now (test builds check it before each call on the context). */
  get held(): boolean {
    return this.running;
  }

  /** Runs `section` after the sections asked for before it; settles as it does. */
  exclusive<T>(section: () => T | Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const run = async (): Promise<void> => {
        this.running = true;
        try {
          resolve(await section());
        } catch (error) {
          // As thrown: a trap or a C++ exception from the wasm is no Error, and the guard reads it as it is.
          reject(error);
        } finally {
          this.release();
        }
      };
      if (this.running) this.waiting.push(() => void run());
      else void run();
    });
  }

  private release(): void {
    this.running = false;
    this.waiting.shift()?.();
  }
}
