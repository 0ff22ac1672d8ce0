/**
 * Writes the reranker test models into a folder: `tsx scripts/write-test-rerank-models.ts [dir]`
 * writes `inpage-test-rerank.gguf` (the `rerank` template) and `inpage-test-rerank-plain.gguf`
 * (BOS, EOS and SEP; llama-server: `-m X.gguf --reranking`).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildInpageTestRerankModel } from '../test/fixtures/inpage-test-rerank';

const dir = resolve(process.argv[2] ?? '.');
const files = {
  'inpage-test-rerank.gguf': () => buildInpageTestRerankModel(),
  'inpage-test-rerank-plain.gguf': () => buildInpageTestRerankModel(true),
};
mkdirSync(dir, { recursive: true });
for (const [name, build] of Object.entries(files)) {
  const bytes = build();
  writeFileSync(join(dir, name), bytes);
  console.log(`${join(dir, name)} ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
}
