/**
 * Whether a draft model can draft for a model (llama.cpp's common_speculative_are_compatible):
 * the same tokenizer type, the same BOS and EOS where they are added, vocabularies within 128
 * tokens of each other in size, and the same text for every token from id 5 up to the smaller's
 * end. Read from both GGUFs' metadata, before the draft is loaded.
 */
import type { GgufValue } from './read-gguf-metadata';

/** llama.cpp's SPEC_VOCAB_MAX_SIZE_DIFFERENCE and SPEC_VOCAB_CHECK_START_TOKEN_ID. */
const MAX_SIZE_DIFFERENCE = 128;
const CHECK_START_TOKEN_ID = 5;

/** Why the draft's vocabulary does not match the model's, or null where it does. */
export function draftVocabularyMismatch(model: Map<string, GgufValue>, draft: Map<string, GgufValue>): string | null {
  const key = (name: string) => [model.get(name), draft.get(name)] as const;
  const [typeModel, typeDraft] = key('tokenizer.ggml.model');
  if (typeModel !== typeDraft) return `its tokenizer is '${String(typeDraft)}', the model's '${String(typeModel)}'`;
  for (const which of ['bos', 'eos'] as const) {
    const [addModel, addDraft] = key(`tokenizer.ggml.add_${which}_token`);
    const [idModel, idDraft] = key(`tokenizer.ggml.${which}_token_id`);
    if (addModel !== addDraft || (addModel === true && idModel !== idDraft))
      return `its ${which.toUpperCase()} token (${String(idDraft)}, added: ${String(addDraft ?? false)}) is not the model's (${String(idModel)}, added: ${String(addModel ?? false)})`;
  }
  const [tokensModel, tokensDraft] = key('tokenizer.ggml.tokens');
  if (!Array.isArray(tokensModel) || !Array.isArray(tokensDraft)) return 'a vocabulary is missing';
  if (Math.abs(tokensModel.length - tokensDraft.length) > MAX_SIZE_DIFFERENCE)
    return `it has ${tokensDraft.length} tokens, the model ${tokensModel.length} (at most ${MAX_SIZE_DIFFERENCE} apart)`;
  const end = Math.min(tokensModel.length, tokensDraft.length);
  for (let id = CHECK_START_TOKEN_ID; id < end; id++)
    if (tokensModel[id] !== tokensDraft[id])
      return `its token ${id} is ${JSON.stringify(tokensDraft[id])}, the model's ${JSON.stringify(tokensModel[id])}`;
  return null;
}
