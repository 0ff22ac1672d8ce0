/** A GGUF model's chat template (`tokenizer.chat_template`) with the texts of its BOS and EOS tokens. */
import type { GgufValue } from './read-gguf-metadata';
import type { Vocabulary } from './vocabulary';

/** What a model's chat prompts need: its Jinja template and the texts templates print as `bos_token`/`eos_token`. */
export interface ChatTemplate {
  source: string;
  bos_token: string;
  eos_token: string;
}

/** The model's chat template, or null when the GGUF has none. */
export function chatTemplateFromMetadata(metadata: Map<string, GgufValue>, vocab: Vocabulary): ChatTemplate | null {
  const source = metadata.get('tokenizer.chat_template');
  if (typeof source !== 'string' || source.trim() === '') return null;
  const text = (key: string) => {
    const id = metadata.get(key);
    return typeof id === 'number' ? vocab.text(id) : '';
  };
  return { source, bos_token: text('tokenizer.ggml.bos_token_id'), eos_token: text('tokenizer.ggml.eos_token_id') };
}
