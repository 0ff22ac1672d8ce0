/**
 * The check a LoRA adapter file (llama-server's `--lora`) passes before llama.cpp sees it: a
 * GGUF whose header and tensor data are sound (as a model's are), whose `general.type` is
 * `adapter` and `adapter.type` is `lora`. An activated LoRA (aLoRA: `adapter.alora.invocation_tokens`,
 * applied only from its invocation on) is refused: this engine would apply it to the whole
 * prompt. Whether it fits its model (architecture, tensor names and shapes) is llama.cpp's
 * check, at load. Returns what `/lora-adapters` lists of it.
 */
import { checkTensorData } from './check-tensor-data';
import { GgufError } from './gguf-error';
import { readGgufHeader } from './read-gguf-header';

export interface LoraFileInfo {
  /** `adapter.lora.task_name` and `adapter.lora.prompt_prefix` ('' where absent), as llama-server reads them. */
  taskName: string;
  promptPrefix: string;
}

export async function validateLora(blob: Blob): Promise<LoraFileInfo> {
  const header = await readGgufHeader(blob);
  checkTensorData(header);
  const text = (key: string) => {
    const value = header.metadata.get(key)?.value;
    return typeof value === 'string' ? value : null;
  };
  const type = text('general.type');
  if (type !== 'adapter')
    throw new GgufError(
      `it is not an adapter: its general.type is ${type === null ? 'missing' : `'${type}'`}, and a LoRA adapter's is 'adapter'`,
    );
  const adapter = text('adapter.type');
  if (adapter !== 'lora')
    throw new GgufError(
      `its adapter.type is ${adapter === null ? 'missing' : `'${adapter}'`}, and only 'lora' is loaded`,
    );
  if (header.metadata.has('adapter.alora.invocation_tokens'))
    throw new GgufError('it is an activated LoRA (aLoRA), which this engine does not apply');
  if (header.tensors.length === 0) throw new GgufError('the file has no tensors (it holds metadata only)');
  return { taskName: text('adapter.lora.task_name') ?? '', promptPrefix: text('adapter.lora.prompt_prefix') ?? '' };
}
