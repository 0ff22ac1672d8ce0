/**
 * Writes the test LoRA adapters for `inpage-test` into a folder: `tsx
 * scripts/write-test-lora-adapters.ts [dir]` writes `inpage-test-lora-back.gguf` and
 * `inpage-test-lora-attn.gguf` (test/fixtures/inpage-test-lora.ts; llama-server: `-m
 * inpage-test.gguf --lora X.gguf`).
 */
import { resolve } from 'node:path';
import { writeTestFiles } from './write-test-files';
import { buildInpageTestLoraAttn, buildInpageTestLoraBack } from '../test/fixtures/inpage-test-lora';

const files = {
  'inpage-test-lora-back.gguf': buildInpageTestLoraBack,
  'inpage-test-lora-attn.gguf': buildInpageTestLoraAttn,
};
writeTestFiles(resolve(process.argv[2] ?? '.'), files);
