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
import { JSON_NOTATION, type ValueNotation } from './value-notation';
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
 * The body over a tool's arguments, one rule per property (`argument(key, schema)`), the required
 * ones first in any order (`argumentsRule`), with `separator` between them.
 */
export function toolArguments(
  tool: ToolSchema,
  argument: (key: string, schema: unknown) => string,
  separator = '',
): string {
  const { properties, required } = toolShape(tool.parameters);
  const rule = (key: string) => argument(key, properties[key]);
  const needed = required.filter((key) => key in properties).map(rule);
  const optional = Object.keys(properties)
    .filter((key) => !required.includes(key))
    .map(rule);
  return argumentsRule(needed, optional, separator);
}

/**
 * The rule of a value a tagged or XML call writes as text where it may be a string: its JSON where
 * it may not; its text in `text` where its schema holds the text (`holdsText`); else null (any
 * text), as where a tool that is not strict has a schema a grammar cannot enforce.
 */
export function textOrJsonRule(
  rules: GbnfRules,
  tool: ToolSchema,
  key: string,
  schema: unknown,
  text: ValueNotation,
): string | null {
  if (!mayBeString(schema)) return propertyRule(rules, tool, key, schema);
  return holdsText(schema) ? propertyRule(rules, tool, key, schema, text) : null;
}

/**
 * The rule of a tool's property `key` (its `schema`'s JSON, or its text in `notation`; its `$ref`s
 * resolved in the tool's parameters, where it sits), or null where a tool that is not strict has a
 * schema a grammar cannot enforce (a strict one's is a 400 naming it). Checked in scratch rules
 * first, so a half-added rule set never stays.
 */
export function propertyRule(
  rules: GbnfRules,
  tool: ToolSchema,
  key: string,
  schema: unknown,
  notation: ValueNotation = JSON_NOTATION,
): string | null {
  const add = (into: GbnfRules) =>
    addSchemaRule(into, schema, `${tool.name}-${key}-value`, tool.param, {
      root: tool.parameters,
      path: `#/properties/${key}`,
      notation,
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

/**
 * Whether the schema allows a string (its `type`, or a string among its `enum` or `const`): a
 * tagged or XML call's value is then its text, not JSON.
 */
export function mayBeString(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const type: unknown = Reflect.get(schema, 'type');
  if (type === 'string' || (Array.isArray(type) && type.includes('string'))) return true;
  const values: unknown = Reflect.get(schema, 'enum');
  if (Array.isArray(values) && values.some((value) => typeof value === 'string')) return true;
  return typeof Reflect.get(schema, 'const') === 'string';
}

/** Text keywords a string's schema holds it to. */
const TEXT_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'format'];

/**
 * Whether a property's values are strings only and its schema holds their text (an `enum` or a
 * `const` of strings, or a string's length, pattern or format): a tagged or XML call, which writes
 * the text as it is, holds it in `textNotation` then (else any text).
 */
export function holdsText(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  const values = schema['enum'];
  if (Array.isArray(values)) return values.length > 0 && values.every((value) => typeof value === 'string');
  if ('const' in schema) return typeof schema['const'] === 'string';
  return schema['type'] === 'string' && TEXT_KEYWORDS.some((keyword) => keyword in schema);
}
