/**
 * The check a projector file (llama.cpp's mtmd, an `--mmproj` GGUF) passes before llama.cpp sees
 * it: a GGUF whose header and tensor data are sound (as a model's are) and whose architecture is
 * `clip`, the one mtmd loads. Whether it fits its model (the widths) is llama.cpp's check, at load.
 */
import { checkTensorData } from './check-tensor-data';
import { GgufError } from './gguf-error';
import { readGgufHeader, type GgufHeader } from './read-gguf-header';

export async function validateProjector(blob: Blob): Promise<GgufHeader> {
  const header = await readGgufHeader(blob);
  checkTensorData(header);
  if (header.tensors.length === 0) throw new GgufError('the file has no tensors (it holds metadata only)');
  const architecture = header.metadata.get('general.architecture')?.value;
  if (architecture !== 'clip')
    throw new GgufError(
      `it is not a projector: its general.architecture is ${typeof architecture === 'string' ? `'${architecture}'` : 'missing'}, and a projector's is 'clip'`,
    );
  return header;
}
