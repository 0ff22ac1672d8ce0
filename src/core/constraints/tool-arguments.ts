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
import { localTarget } from './schema-kinds';
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
 * The rule of a value a tagged or XML call writes as text where it may be a string (`isText`, in
 * the tool's parameters, where its `$ref`s resolve): its JSON where it may not; its text in `text`
 * where its schema holds the text (`holdsText`); else null (any text), as where a tool that is not
 * strict has a schema a grammar cannot enforce.
 */
export function textOrJsonRule(
  rules: GbnfRules,
  tool: ToolSchema,
  key: string,
  schema: unknown,
  text: ValueNotation,
  isText: (schema: unknown, root: unknown) => boolean,
): string | null {
  if (!isText(schema, tool.parameters)) return propertyRule(rules, tool, key, schema);
  return holdsText(schema, tool.parameters) ? propertyRule(rules, tool, key, schema, text) : null;
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

/** Text keywords a string's schema holds it to. */
const TEXT_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'format'];

/**
 * Whether a property's values are strings only and its schema holds their text (an `enum` or a
 * `const` of strings, or a string's length, pattern or format): a tagged or XML call, which writes
 * the text as it is, holds it in `textNotation` then (else any text). A `$ref` is its target's (in `root`).
 */
export function holdsText(referred: unknown, root: unknown): boolean {
  const schema = dereferenced(referred, root);
  if (!isRecord(schema)) return false;
  const values = schema['enum'];
  if (Array.isArray(values)) return values.length > 0 && values.every((value) => typeof value === 'string');
  if ('const' in schema) return typeof schema['const'] === 'string';
  return schema['type'] === 'string' && TEXT_KEYWORDS.some((keyword) => keyword in schema);
}

/** `schema` past its `$ref`s (resolved in `root`), or undefined where one points nowhere or round. */
function dereferenced(schema: unknown, root: unknown): unknown {
  const seen = new Set<unknown>();
  let target = schema;
  while (isRecord(target) && typeof target['$ref'] === 'string') {
    if (seen.has(target)) return undefined;
    seen.add(target);
    target = localTarget(root, target['$ref']);
  }
  return target;
}
