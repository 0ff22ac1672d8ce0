/**
 * Writes the test LoRA adapters for `inpage-test` into a folder: `tsx
 * scripts/write-test-lora-adapters.ts [dir]` writes `inpage-test-lora-back.gguf` and
 * `inpage-test-lora-attn.gguf` (test/fixtures/inpage-test-lora.ts; llama-server: `-m
 * inpage-test.gguf --lora X.gguf`).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildInpageTestLoraAttn, buildInpageTestLoraBack } from '../test/fixtures/inpage-test-lora';

const dir = resolve(process.argv[2] ?? '.');
const files = {
  'inpage-test-lora-back.gguf': buildInpageTestLoraBack,
  'inpage-test-lora-attn.gguf': buildInpageTestLoraAttn,
};
mkdirSync(dir, { recursive: true });
for (const [name, build] of Object.entries(files)) {
  const bytes = build();
  writeFileSync(join(dir, name), bytes);
  console.log(`${join(dir, name)} ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
}
