/** The picker's "runs on" cell for a served model: `cpu (no shader-f16)`, `webgpu`, or empty where the card does not say. */
import type { ModelCard } from '../src/index';

export function describeAccelerator(card: Pick<ModelCard, 'accelerator' | 'accelerator_reason'>): string {
  if (!card.accelerator) return '';
  return card.accelerator_reason ? `${card.accelerator} (${card.accelerator_reason})` : card.accelerator;
}
