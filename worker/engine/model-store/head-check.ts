/**
 * The checks a model file's bytes pass as they arrive, before any is kept: its first bytes are
 * a GGUF file's (not an HTML page served with 200), and its size fits the engine
 * (`size-check.ts`: the declared length at once, else the header's sizes and the bytes so far).
 * Each refusal is a 503 that stops the download.
 */
import { ServiceUnavailableError } from '#core/domain/errors';
import { notGgufReason } from '#gguf/not-gguf-reason';
import { SizeCheck } from '../backends/llamacpp/size-check';

/** Bytes of a body's start looked at before it is taken for a GGUF file (the magic, or an HTML page's tag). */
const HEAD_BYTES = 64;

export class HeadCheck {
  private head = new Uint8Array(0);
  private readonly size: SizeCheck;

  constructor(
    private readonly url: string,
    model: string,
  ) {
    this.size = new SizeCheck(model);
  }

  /** The file's length, once known (0: not known). */
  declared(total: number): void {
    this.size.declared(total);
  }

  /** A chunk at byte `offset` of the file; chunks of the file's start come in order. */
  add(chunk: Uint8Array, offset: number): void {
    if (offset < HEAD_BYTES && offset === this.head.length) {
      const head = new Uint8Array(Math.min(HEAD_BYTES, offset + chunk.length));
      head.set(this.head);
      head.set(chunk.subarray(0, head.length - offset), offset);
      this.head = head;
      const reason = notGgufReason(head);
      if (reason !== null)
        throw new ServiceUnavailableError(
          `'${this.url}' is not a GGUF file: ${reason}. Check the model URL.`,
          'model_load_failed',
        );
    }
    this.size.add(chunk, offset + chunk.length);
  }

  /** The file is whole at `bytes`: an empty one is refused. */
  ended(bytes: number): void {
    if (bytes === 0)
      throw new ServiceUnavailableError(`'${this.url}' is not a GGUF file (it is empty).`, 'model_load_failed');
  }
}
