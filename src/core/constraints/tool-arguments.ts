/**
 * The arguments of a call written as one piece per argument (tagged and Python-style calls), as
 * GBNF, and each argument's value rule: the required ones in any order (up to three; more, in the schema's order), then any
 * optional ones, with `separator` between pieces (Python's `", "`; none where each piece ends
 * itself, as a tagged parameter does).
 *
 * @example
 * argumentsRule(['a', 'b'], ['c'], '", "') // '( a ", " b | b ", " a ) ( ", " ( c ) )*'
 */
import { isRecord } from '../util/is-record';
import { GbnfRules } from './gbnf-rules';
import { addSchemaRule } from './json-schema-to-gbnf';
import type { ToolSchema } from './tool-call-grammar';

/** The most required arguments written in any order (their orders are alternatives: 3! = 6). */
const MAX_PERMUTED = 3;

/** The body over the rules of the `needed` and `optional` arguments ('' where there are none). */
export function argumentsRule(needed: readonly string[], optional: readonly string[], separator = ''): string {
  const join = separator === '' ? ' ' : ` ${separator} `;
  const orders = needed.length <= MAX_PERMUTED ? permutations([...needed]) : [[...needed]];
  const first = orders.map((order) => order.join(join)).filter((order) => order !== '');
  const any = `( ${optional.join(' | ')} )`;
  const rest =
    optional.length === 0
      ? ''
      : separator === ''
        ? `${any}*`
        : first.length > 0
          ? `( ${separator} ${any} )*`
          : `( ${any} ( ${separator} ${any} )* )?`;
  return [first.length > 0 ? `( ${first.join(' | ')} )` : '', rest].filter((part) => part !== '').join(' ');
}

/**
 * The rule of a tool's property `key` (its `schema`'s JSON, its `$ref`s resolved in the tool's
 * parameters, where it sits), or null where a tool that is not strict has a schema a grammar
 * cannot enforce (a strict one's is a 400 naming it). Checked in scratch rules first, so a
 * half-added rule set never stays.
 */
export function propertyRule(rules: GbnfRules, tool: ToolSchema, key: string, schema: unknown): string | null {
  const add = (into: GbnfRules) =>
    addSchemaRule(into, schema, `${tool.name}-${key}-value`, tool.param, {
      root: tool.parameters,
      path: `#/properties/${key}`,
    });
  if (tool.strict !== true) {
    try {
      add(new GbnfRules());
    } catch {
      return null;
    }
  }
  return add(rules);
}

/** A tool's `parameters` as its properties and the names it requires. */
export function toolShape(parameters: unknown): { properties: Record<string, unknown>; required: string[] } {
  const schema = isRecord(parameters) ? parameters : {};
  const properties = schema['properties'];
  const required: unknown = schema['required'];
  return {
    properties: isRecord(properties) ? properties : {},
    required: Array.isArray(required) ? required.filter((key): key is string => typeof key === 'string') : [],
  };
}

/** Every order of `items`. */
function permutations(items: string[]): string[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}
