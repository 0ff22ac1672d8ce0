/** Output constraints (response_format, json_schema, grammar, regex, choices) -> one GBNF grammar. */
export type { Constraint, ConstraintKind, GrammarConstraint } from './constraint';
export type { ConstraintRequest } from './to-constraint';
export type { ToolCallGrammar, ToolCallOptions, ToolSchema } from './tool-call-grammar';
export { toConstraint } from './to-constraint';
export { toolCallGrammar } from './tool-call-grammar';
export { jsonObjectGbnf, jsonSchemaToGbnf } from './json-schema-to-gbnf';
export { regexExpression, regexToGbnf } from './regex-to-gbnf';
export { choiceToGbnf } from './choice-to-gbnf';
export { checkGbnf } from './gbnf-check';
export { CONSTRAINT_FIELDS } from './constraint-fields';
