/**
 * llama-server's slot actions on the llama.cpp model: the context's state saved to a named file
 * of the origin's OPFS (`inpage-slots`, where llama-server has `--slot-save-path`), restored
 * from one, or erased. The file is llama.cpp's sequence-state file (native/state.cpp), the
 * format llama-server writes. Restoring a file that is missing or that llama.cpp refuses is a
 * 400, as llama-server answers it, and leaves the context empty.
 */
import { InvalidRequestError, ServiceUnavailableError } from '#core/domain/errors';
import { isSlotFilename } from '#core/domain/slot-filename';
import type { SlotActionRequest, SlotActionResult } from '#core/domain/slots';
import { StateFolder, hasStateStorage } from '../../prompt-cache/state-folder';
import { EngineError } from './engine-error';
import type { EngineGuard } from './engine-guard';
import type { LlamaWasm } from './llama-wasm';

/** The slot files' folder in the origin's OPFS. */
export const SLOTS_DIR = 'inpage-slots';

export class SlotFiles {
  private readonly folder = new StateFolder(SLOTS_DIR);

  constructor(
    private readonly engine: LlamaWasm,
    private readonly guard: EngineGuard,
  ) {}

  /** Runs `request` on slot `slot` (selected in each section: other slots run between sections). */
  async run(request: SlotActionRequest, slot: number): Promise<SlotActionResult> {
    const started = performance.now();
    const done = (tokens: number, bytes: number): SlotActionResult => ({
      tokens,
      bytes,
      ms: performance.now() - started,
    });
    if (request.action === 'erase') {
      const tokens = this.guard.call(() => this.engine.slotTokens(slot).length);
      await this.guard.onSlot(slot, () => this.engine.clearSlot(slot));
      return done(tokens, 0);
    }
    // Checked in the Service Worker; again here, past the message boundary (an OPFS name must not escape the folder).
    const filename = request.filename ?? '';
    if (!isSlotFilename(filename)) throw new InvalidRequestError('Invalid filename', 'filename');
    if (!hasStateStorage())
      throw new ServiceUnavailableError(
        'This browser gives the engine no storage (OPFS) for slot files.',
        'no_storage',
      );
    if (request.action === 'save') {
      const tokens = this.guard.call(() => this.engine.slotTokens(slot).length);
      const bytes = await this.guard.onSlot(slot, () => this.engine.saveState());
      await this.folder.write(filename, bytes);
      return done(tokens, bytes.length);
    }
    const bytes = await this.folder.read(filename);
    if (!bytes) throw refused(`there is no slot file '${filename}'`);
    try {
      return done(await this.guard.onSlot(slot, () => this.engine.restoreState(bytes)), bytes.length);
    } catch (error) {
      if (error instanceof EngineError) throw refused(error.message);
      throw error;
    }
  }
}

const refused = (why: string) =>
  new InvalidRequestError(`Unable to restore slot: ${why}.`, 'filename', 'invalid_slot_file');
