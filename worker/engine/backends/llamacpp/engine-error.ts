/** A failure the glue reported (its message says what); the engine itself is still sound. */
export class EngineError extends Error {
  override readonly name = 'EngineError';
}

/** A request the glue refused for its input (a media item it cannot read, say): the engine is sound, the request at fault. */
export class EngineInputError extends EngineError {
  readonly input = true;

  /** `item`: the media item at fault, by index, where the glue names one ("media item 2 ..."). */
  constructor(
    message: string,
    readonly item: number | null = null,
  ) {
    super(message);
  }
}

/**
 * A request whose sampler could not go on (llama.cpp threw: its grammar cannot take the token
 * chosen, a token the reasoning budget forced, say): the engine is sound, the request at fault.
 */
export class SamplerError extends EngineError {}
