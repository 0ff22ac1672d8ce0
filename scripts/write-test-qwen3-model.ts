/** Writes the `inpage-test-qwen3` GGUF to a file: `tsx scripts/write-test-qwen3-model.ts [out.gguf]`. */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildInpageTestQwen3Model } from '../test/fixtures/inpage-test-qwen3-model';
import { loadQwen3Tokenizer } from './load-qwen3-tokenizer';

const outPath = resolve(process.argv[2] ?? 'inpage-test-qwen3.gguf');
const bytes = buildInpageTestQwen3Model(await loadQwen3Tokenizer());
mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(outPath, bytes);
console.log(`${outPath} ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
