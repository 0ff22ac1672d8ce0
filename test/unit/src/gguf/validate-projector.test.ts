import { describe, expect, it } from 'vitest';
import { buildInpageTestModel } from '../../../../src/builtin-model/inpage-test-model';
import { validateProjector } from '../../../../src/gguf/validate-projector';
import { buildInpageTestAudioProjector } from '../../../fixtures/inpage-test-audio';
import { buildInpageTestVisionProjector } from '../../../fixtures/inpage-test-vision';

describe('validateProjector', () => {
  it("passes the test pairs' projectors", async () => {
    for (const bytes of [buildInpageTestVisionProjector(), buildInpageTestAudioProjector()]) {
      const header = await validateProjector(new Blob([bytes]));
      expect(header.metadata.get('general.architecture')?.value).toBe('clip');
    }
  });

  it("refuses a model (its architecture is not 'clip'), a truncated projector and something else", async () => {
    await expect(validateProjector(new Blob([buildInpageTestModel()]))).rejects.toThrow(
      /not a projector: its general.architecture is 'llama'/,
    );
    const projector = buildInpageTestVisionProjector();
    await expect(validateProjector(new Blob([projector.slice(0, projector.length - 1000)]))).rejects.toThrow();
    await expect(validateProjector(new Blob(['<html>not found</html>']))).rejects.toThrow();
  });
});
