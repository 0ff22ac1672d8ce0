/**
 * The output constraint of a request body, as the engine takes it (one GBNF grammar, the field
 * that asked for it, and the JSON schema of JSON constraints), shared by every endpoint's
 * validator; `CONSTRAINT_KEYS` are the top-level fields that may carry one (OpenAI's,
 * llama.cpp's, vLLM's and SGLang's spellings).
 */
import { CONSTRAINT_FIELDS } from '../constraints/constraint-fields';
import { toConstraint } from '../constraints/to-constraint';
import type { OutputGrammar } from '../domain/generation';

/** Body keys that carry an output constraint (`text.format` lives inside `text`). */
export const CONSTRAINT_KEYS: readonly string[] = CONSTRAINT_FIELDS.map((field) => field.param).filter(
  (param) => !param.includes('.'),
);

export function readGrammar(body: Readonly<Record<string, unknown>>): OutputGrammar | null {
  const constraint = toConstraint(body);
  if (!constraint) return null;
  const { gbnf, param, schema, kind } = constraint;
  return {
    gbnf,
    param,
    ...(schema === undefined ? {} : { schema }),
    ...(kind === 'grammar' ? {} : { afterReasoning: true as const }),
  };
}
