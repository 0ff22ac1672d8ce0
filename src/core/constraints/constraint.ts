/**
 * The neutral result of reading a request's output constraints: nothing, or one GBNF grammar
 * (what llama.cpp's sampler takes) plus, for JSON kinds, the schema it came from (for backends
 * such as WebLLM's xgrammar that take a JSON schema directly).
 */

/** Which request field family the grammar came from. */
export type ConstraintKind = 'grammar' | 'json' | 'json_schema' | 'regex' | 'choice';

/** One grammar that the whole output must match. */
export interface GrammarConstraint {
  /** A GBNF grammar with a `root` rule. */
  readonly gbnf: string;
  readonly kind: ConstraintKind;
  /** The request field that carried it, e.g. `response_format` or `guided_regex`. */
  readonly param: string;
  /** The JSON schema for `json_schema` (and `{type:'object'}` for `json`). */
  readonly schema?: object;
}

/** No constraint: the output is free text. */
export type Constraint = GrammarConstraint | null;
