/** A failure the glue reported (its message says what); the engine itself is still sound. */
export class EngineError extends Error {
  override readonly name = 'EngineError';
}
