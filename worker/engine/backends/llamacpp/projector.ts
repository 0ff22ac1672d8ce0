/**
 * A model's multimodal projector (llama.cpp's mtmd, llama-server's `--mmproj`), once loaded into
 * the model's engine: what it reads, and the marker that stands for one media item in a prompt.
 * Like llama-server, each load picks a random marker (`<__media_...__>`, said in `/props`), so a
 * request's text cannot spell one by chance.
 */
import type { Accelerator } from '#core/domain/accelerator';
import type { Modalities } from './llama-wasm';

export interface Projector {
  /** Its id (the file's name without `.gguf`), for cards and errors. */
  readonly id: string;
  readonly modalities: Modalities;
  /**
   * Where its encoders run: `webgpu` where the load asked for the GPU (backend.ts's
   * `PROJECTOR_ON_GPU`) and the model's engine has a GPU device, else `cpu` (native/media.cpp).
   */
  readonly accelerator: Accelerator;
  /** llama-server's `media_marker`. */
  readonly marker: string;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A marker as llama-server makes one: `<__media_` and 32 random letters and digits, then `__>`. */
export function randomMediaMarker(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `<__media_${Array.from(bytes, (byte) => LETTERS[byte % LETTERS.length]).join('')}__>`;
}
