/** What the per-type JSON Schema converters (string, number, object, array) get from the visitor. */
import type { GbnfRules } from './gbnf-rules';
import type { SchemaPlace } from './schema-error';
import type { ValueNotation } from './value-notation';

export interface SchemaContext {
  readonly rules: GbnfRules;
  /** How values are written (JSON, or Gemma 4's call notation). */
  readonly notation: ValueNotation;
  /** A GBNF expression for `schema` (a rule name or an inline expression). */
  visit(schema: unknown, name: string, place: SchemaPlace): string;
  /** A rule name for `schema`: `visit`, then a named rule unless it already is one. */
  ruleFor(schema: unknown, name: string, place: SchemaPlace): string;
}
