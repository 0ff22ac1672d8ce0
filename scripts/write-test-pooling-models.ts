/**
 * Writes the test models whose output is pooled into a folder: `tsx
 * scripts/write-test-pooling-models.ts [dir]` writes the rerankers `inpage-test-rerank.gguf` (the
 * `rerank` template), `inpage-test-rerank-plain.gguf` (BOS, EOS and SEP) and
 * `inpage-test-bert-rerank.gguf` (llama-server: `-m X.gguf --reranking`), and the BERT embedder
 * `inpage-test-bert.gguf` (`--embedding`).
 */
import { resolve } from 'node:path';
import { writeTestFiles } from './write-test-files';
import { buildInpageTestBertModel } from '../test/fixtures/inpage-test-bert';
import { buildInpageTestRerankModel } from '../test/fixtures/inpage-test-rerank';

const files = {
  'inpage-test-rerank.gguf': () => buildInpageTestRerankModel(),
  'inpage-test-rerank-plain.gguf': () => buildInpageTestRerankModel(true),
  'inpage-test-bert-rerank.gguf': () => buildInpageTestBertModel(true),
  'inpage-test-bert.gguf': () => buildInpageTestBertModel(),
};
writeTestFiles(resolve(process.argv[2] ?? '.'), files);
