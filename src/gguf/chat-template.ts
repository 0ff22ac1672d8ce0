/**
 * A GGUF model's chat template with the texts of its BOS and EOS tokens, chosen as llama-server
 * chooses it (common_chat_templates_init): `tokenizer.chat_template`; where that is missing, empty
 * or `chatml`, the GGUF's `tokenizer.chat_template.tool_use`; else llama.cpp's default, chatml.
 */
import type { GgufValue } from './read-gguf-metadata';
import type { Vocabulary } from './vocabulary';

/** Where a model's chat template comes from: its GGUF, or llama.cpp's default (chatml) for a GGUF without one. */
export type ChatTemplateOrigin = 'gguf' | 'chatml';

/** What a model's chat prompts need: its Jinja template and the texts templates print as `bos_token`/`eos_token`. */
export interface ChatTemplate {
  source: string;
  bos_token: string;
  eos_token: string;
  origin: ChatTemplateOrigin;
}

/** llama.cpp's default chat template (common/chat.cpp's CHATML_TEMPLATE_SRC), byte for byte. */
export const CHATML_TEMPLATE =
  '{%- for message in messages -%}\n' +
  "  {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>\n' -}}\n" +
  '{%- endfor -%}\n' +
  '{%- if add_generation_prompt -%}\n' +
  "  {{- '<|im_start|>assistant\n' -}}\n" +
  '{%- endif -%}';

/** The model's chat template: its own, or llama-server's default (chatml) where the GGUF has none. */
export function chatTemplateFromMetadata(metadata: Map<string, GgufValue>, vocab: Vocabulary): ChatTemplate {
  const text = (key: string) => {
    const id = metadata.get(key);
    return typeof id === 'number' ? vocab.text(id) : '';
  };
  const string = (key: string) => {
    const value = metadata.get(key);
    return typeof value === 'string' ? value : '';
  };
  const main = string('tokenizer.chat_template');
  const own = main === '' || main === 'chatml' ? string('tokenizer.chat_template.tool_use') : main;
  return {
    source: own === '' ? CHATML_TEMPLATE : own,
    bos_token: text('tokenizer.ggml.bos_token_id'),
    eos_token: text('tokenizer.ggml.eos_token_id'),
    origin: own === '' ? 'chatml' : 'gguf',
  };
}
