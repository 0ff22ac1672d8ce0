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
