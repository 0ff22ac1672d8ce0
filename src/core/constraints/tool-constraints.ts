/**
 * Strict tools: for each function tool with `strict: true`, a GBNF grammar for its call's
 * `arguments` (a JSON value of the tool's `parameters` schema). Accepts Chat tools
 * (`{type:'function', function:{name, parameters, strict}}`) and Responses tools
 * (`{type:'function', name, parameters, strict}`). How a tool call is framed in the output
 * depends on the model's chat template; this module gives only the arguments grammar.
 */
import { InvalidRequestError } from '../errors';
import { schemaConstraint } from './constraint-readers';

export interface ToolArgumentsConstraint {
  readonly name: string;
  readonly gbnf: string;
  readonly schema: object;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return isRecord(value) ? value : undefined;
}

/** Grammars for the strict function tools in `tools` (others are left out). */
export function toolArgumentConstraints(tools: unknown, param = 'tools'): ToolArgumentsConstraint[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw new InvalidRequestError(`'${param}' must be an array`, param, 'invalid_type');
  const out: ToolArgumentsConstraint[] = [];
  tools.forEach((tool: unknown, i) => {
    const outer = record(tool);
    if (outer?.['type'] !== 'function') return;
    const nested = record(outer['function']);
    const fn = nested ?? outer;
    if (fn['strict'] !== true) return;
    const where = nested ? `${param}[${i}].function` : `${param}[${i}]`;
    const name = fn['name'];
    if (typeof name !== 'string' || name === '')
      throw new InvalidRequestError(`'${where}.name' must be a non-empty string`, `${where}.name`, 'invalid_value');
    const parameters = fn['parameters'] ?? { type: 'object', properties: {}, additionalProperties: false };
    const { gbnf, schema } = schemaConstraint(parameters, `${where}.parameters`);
    out.push({ name, gbnf, schema: schema ?? {} });
  });
  return out;
}
