/**
 * The llama.cpp engine's slots in this worker (src/core/domain/slot-count.ts): what the page
 * asked (`useSlots`), else one. Read at each load, so a model loaded after the call takes it.
 */
let requested = 1;

export function setRequestedSlots(slots: number): void {
  requested = slots;
}

/** The slots the next model loads with. */
export function engineSlots(): number {
  return requested;
}
