/** Writes the `inpage-test` GGUF to a file: `tsx scripts/write-test-model.ts [out.gguf]`. */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildInpageTestModel } from '../src/builtin-model/inpage-test-model';

const outPath = resolve(process.argv[2] ?? 'inpage-test.gguf');
const bytes = buildInpageTestModel();
writeFileSync(outPath, bytes);
console.log(`${outPath} ${bytes.length} bytes`);
