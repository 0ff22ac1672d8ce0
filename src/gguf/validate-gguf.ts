/**
 * The check a GGUF file passes before llama.cpp sees it: a model file is untrusted input (a
 * pasted URL, a truncated download, a proxy's HTML page), and llama.cpp aborts or reads out of
 * bounds on many malformed ones. Reads only the header's bytes, so a multi-GB model costs a
 * few MB of reads. Throws a `GgufError` that says what is wrong; resolves with the header and
 * its metadata values.
 */
import { GgufError } from './gguf-error';
import { checkLlamaLayout } from './check-llama-layout';
import { checkSplit } from './check-split';
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
  return validateGgufParts([blob]);
}

/**
 * The same check of a model split in `parts` (`gguf-split`): each part's header and tensor
 * data, its place in the split, then the model's keys, vocabulary and layout over the tensors
 * of all parts. An error in a part names it.
 */
export async function validateGgufParts(parts: Blob[]): Promise<ValidGguf> {
  const headers: GgufHeader[] = [];
  for (const [index, part] of parts.entries()) {
    try {
      const header = await readGgufHeader(part);
      checkTensorData(header);
      checkSplit(header, index, parts.length);
      headers.push(header);
    } catch (error) {
      if (!(error instanceof GgufError) || parts.length === 1) throw error;
      throw new GgufError(`part ${index + 1} of ${parts.length}: ${error.message}`, { cause: error });
    }
  }
  const first = headers[0];
  if (!first) throw new GgufError('the model has no file');
  const header: GgufHeader = { ...first, tensors: headers.flatMap((part) => part.tensors) };
  if (header.tensors.length === 0) throw new GgufError('the file has no tensors (it holds metadata only)');
  const architecture = checkModelKeys(header);
  const vocabSize = checkVocabulary(header);
  checkLlamaLayout(header, architecture, vocabSize);
  const metadata = new Map([...header.metadata].map(([key, entry]) => [key, entry.value]));
  return { header, metadata, architecture };
}
