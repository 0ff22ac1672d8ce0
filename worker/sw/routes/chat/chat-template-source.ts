/**
 * Which Jinja template a model's chat prompts use: the byte test model's own (contents
 * concatenated, no roles or generation prompt), else the GGUF's `tokenizer.chat_template`.
 * No template is a 400: there is deliberately no ChatML fallback, since a model not trained on
 * ChatML answers a ChatML prompt with plausible-looking garbage.
 */
import { InvalidRequestError } from '../../../../src/core/errors';

/** The template of the byte test model `inpage-test`: user 'abc' renders 'abc'. */
export const INPAGE_TEST_CHAT_TEMPLATE = '{% for m in messages %}{{ m.content }}{% endfor %}';

export const INPAGE_TEST_MODEL = 'inpage-test';

export function chatTemplateSource(model: string, ggufTemplate: string | null | undefined): string {
  if (model === INPAGE_TEST_MODEL) return INPAGE_TEST_CHAT_TEMPLATE;
  if (typeof ggufTemplate === 'string' && ggufTemplate.trim() !== '') return ggufTemplate;
  throw new InvalidRequestError(
    `The model '${model}' has no chat template (tokenizer.chat_template), so it cannot serve /v1/chat/completions; use /v1/completions with a prompt instead.`,
    'model',
    'chat_template_missing',
  );
}
