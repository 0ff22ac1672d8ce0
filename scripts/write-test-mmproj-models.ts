/**
 * Writes the multimodal test pairs into a folder: `tsx scripts/write-test-mmproj-models.ts [dir]`
 * writes `inpage-test-vision.gguf`, `inpage-test-vision.mmproj.gguf`, `inpage-test-audio.gguf` and
 * `inpage-test-audio.mmproj.gguf`,
 * `inpage-test-mrope.gguf`, `inpage-test-mrope.mmproj.gguf`, `inpage-test-qwen3vl.gguf` and
 * `inpage-test-qwen3vl.mmproj.gguf` (llama-server: `-m X.gguf --mmproj X.mmproj.gguf`).
 */
import { resolve } from 'node:path';
import { writeTestFiles } from './write-test-files';
import { buildInpageTestAudioModel, buildInpageTestAudioProjector } from '../test/fixtures/inpage-test-audio';
import { buildInpageTestMropeModel, buildInpageTestMropeProjector } from '../test/fixtures/inpage-test-mrope';
import { buildInpageTestQwen3vlModel, buildInpageTestQwen3vlProjector } from '../test/fixtures/inpage-test-qwen3vl';
import { buildInpageTestVisionModel, buildInpageTestVisionProjector } from '../test/fixtures/inpage-test-vision';

const files = {
  'inpage-test-vision.gguf': buildInpageTestVisionModel,
  'inpage-test-vision.mmproj.gguf': buildInpageTestVisionProjector,
  'inpage-test-audio.gguf': buildInpageTestAudioModel,
  'inpage-test-audio.mmproj.gguf': buildInpageTestAudioProjector,
  'inpage-test-mrope.gguf': buildInpageTestMropeModel,
  'inpage-test-mrope.mmproj.gguf': buildInpageTestMropeProjector,
  'inpage-test-qwen3vl.gguf': buildInpageTestQwen3vlModel,
  'inpage-test-qwen3vl.mmproj.gguf': buildInpageTestQwen3vlProjector,
};
writeTestFiles(resolve(process.argv[2] ?? '.'), files);
