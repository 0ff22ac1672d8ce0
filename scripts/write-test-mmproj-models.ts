/**
 * Writes the multimodal test pairs into a folder: `tsx scripts/write-test-mmproj-models.ts [dir]`
 * writes `inpage-test-vision.gguf`, `inpage-test-vision.mmproj.gguf`, `inpage-test-audio.gguf` and
 * `inpage-test-audio.mmproj.gguf` (llama-server: `-m X.gguf --mmproj X.mmproj.gguf`).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildInpageTestAudioModel, buildInpageTestAudioProjector } from '../test/fixtures/inpage-test-audio';
import { buildInpageTestVisionModel, buildInpageTestVisionProjector } from '../test/fixtures/inpage-test-vision';

const dir = resolve(process.argv[2] ?? '.');
const files = {
  'inpage-test-vision.gguf': buildInpageTestVisionModel,
  'inpage-test-vision.mmproj.gguf': buildInpageTestVisionProjector,
  'inpage-test-audio.gguf': buildInpageTestAudioModel,
  'inpage-test-audio.mmproj.gguf': buildInpageTestAudioProjector,
};
mkdirSync(dir, { recursive: true });
for (const [name, build] of Object.entries(files)) {
  const bytes = build();
  writeFileSync(join(dir, name), bytes);
  console.log(`${join(dir, name)} ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
}
