/**
 * The check a GGUF file passes before llama.cpp sees it: a model file is untrusted input (a
 * pasted URL, a truncated download, a proxy's HTML page), and llama.cpp aborts or reads out of
 * bounds on many malformed ones. Reads only the header's bytes, so a multi-GB model costs a
 * few MB of reads. Throws a `GgufError` that says what is wrong; resolves with the header and
 * its metadata values.
 */
import { GgufError } from './gguf-error';
import { checkLlamaLayout } from './check-llama-layout';
import { checkModelKeys } from './check-model-keys';
import { checkTensorData } from './check-tensor-data';
import { checkVocabulary } from './check-vocabulary';
import { readGgufHeader, type GgufHeader, type GgufValue } from './read-gguf-header';

/** A file that passed: its header, its metadata as plain values, and its architecture. */
export interface ValidGguf {
  readonly header: GgufHeader;
  readonly metadata: Map<string, GgufValue>;
  readonly architecture: string;
}

export async function validateGguf(blob: Blob): Promise<ValidGguf> {
  const header = await readGgufHeader(blob);
  if (header.tensors.length === 0) throw new GgufError('the file has no tensors (it holds metadata only)');
  checkTensorData(header);
  const architecture = checkModelKeys(header);
  const vocabSize = checkVocabulary(header);
  checkLlamaLayout(header, architecture, vocabSize);
  const metadata = new Map([...header.metadata].map(([key, entry]) => [key, entry.value]));
  return { header, metadata, architecture };
}
