/**
 * Writes the multimodal test pairs into a folder: `tsx scripts/write-test-mmproj-models.ts [dir]`
 * writes `inpage-test-vision.gguf`, `inpage-test-vision.mmproj.gguf`, `inpage-test-audio.gguf` and
 * `inpage-test-audio.mmproj.gguf`,
 * `inpage-test-mrope.gguf` and `inpage-test-mrope.mmproj.gguf` (llama-server: `-m X.gguf --mmproj X.mmproj.gguf`).
 */
import { resolve } from 'node:path';
import { writeTestFiles } from './write-test-files';
import { buildInpageTestAudioModel, buildInpageTestAudioProjector } from '../test/fixtures/inpage-test-audio';
import { buildInpageTestMropeModel, buildInpageTestMropeProjector } from '../test/fixtures/inpage-test-mrope';
import { buildInpageTestVisionModel, buildInpageTestVisionProjector } from '../test/fixtures/inpage-test-vision';

const files = {
  'inpage-test-vision.gguf': buildInpageTestVisionModel,
  'inpage-test-vision.mmproj.gguf': buildInpageTestVisionProjector,
  'inpage-test-audio.gguf': buildInpageTestAudioModel,
  'inpage-test-audio.mmproj.gguf': buildInpageTestAudioProjector,
  'inpage-test-mrope.gguf': buildInpageTestMropeModel,
  'inpage-test-mrope.mmproj.gguf': buildInpageTestMropeProjector,
};
writeTestFiles(resolve(process.argv[2] ?? '.'), files);
