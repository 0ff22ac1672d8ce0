/**
 * Writes the test models whose output is pooled into a folder: `tsx
 * scripts/write-test-pooling-models.ts [dir]` writes the rerankers `inpage-test-rerank.gguf` (the
 * `rerank` template), `inpage-test-rerank-plain.gguf` (BOS, EOS and SEP) and
 * `inpage-test-bert-rerank.gguf` (llama-server: `-m X.gguf --reranking`), and the BERT embedder
 * `inpage-test-bert.gguf` (`--embedding`).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildInpageTestBertModel } from '../test/fixtures/inpage-test-bert';
import { buildInpageTestRerankModel } from '../test/fixtures/inpage-test-rerank';

const dir = resolve(process.argv[2] ?? '.');
const files = {
  'inpage-test-rerank.gguf': () => buildInpageTestRerankModel(),
  'inpage-test-rerank-plain.gguf': () => buildInpageTestRerankModel(true),
  'inpage-test-bert-rerank.gguf': () => buildInpageTestBertModel(true),
  'inpage-test-bert.gguf': () => buildInpageTestBertModel(),
};
mkdirSync(dir, { recursive: true });
for (const [name, build] of Object.entries(files)) {
  const bytes = build();
  writeFileSync(join(dir, name), bytes);
  console.log(`${join(dir, name)} ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
}
