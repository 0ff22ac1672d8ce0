/**
 * Validates `tools` (function tools with a JSON-schema `parameters`) and `tool_choice`
 * ('auto' | 'none' | 'required' | a named function that must be among the tools).
 */
import { InvalidRequestError } from '#core/domain/errors';
import { describeValue } from '#core/openai/describe-value';
import { isRecord } from '#core/util/is-record';
import { rejectUnknownKeys, requireKey } from '#core/openai/parse-body';
import type { FunctionTool, ToolChoice } from './chat-types';

/** OpenAI's rule for function names. */
export const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Validates a function's name, description, parameters and strict flag (shared with /v1/responses). */
export function validateFunction(fn: Record<string, unknown>, at: string): FunctionTool['function'] {
  rejectUnknownKeys(fn, new Set(['name', 'description', 'parameters', 'strict']), at);
  const name = requireKey(fn, 'name', at);
  if (typeof name !== 'string' || !FUNCTION_NAME.test(name)) {
    throw new InvalidRequestError(
      `Invalid value for '${at}name': expected a string of 1 to 64 letters, digits, underscores or dashes, but got ${JSON.stringify(name)}.`,
      `${at}name`,
    );
  }
  const { description, parameters, strict } = fn;
  if (description != null && typeof description !== 'string')
    throw typeError(`${at}description`, 'a string', description);
  if (parameters != null && !isRecord(parameters))
    throw typeError(`${at}parameters`, 'an object (a JSON schema)', parameters);
  if (strict != null && typeof strict !== 'boolean') throw typeError(`${at}strict`, 'a boolean', strict);
  return {
    name,
    ...(description == null ? {} : { description }),
    ...(parameters == null ? {} : { parameters }),
    ...(strict == null ? {} : { strict }),
  };
}

export function validateChatTools(tools: unknown): FunctionTool[] {
  if (tools == null) return [];
  if (!Array.isArray(tools)) throw typeError('tools', 'an array', tools);
  return tools.map((tool: unknown, i) => {
    const at = `tools[${i}]`;
    if (!isRecord(tool)) throw typeError(at, 'an object', tool);
    if (tool.type !== 'function') {
      throw new InvalidRequestError(
        `Invalid value for '${at}.type': only 'function' tools are supported, got ${JSON.stringify(tool.type ?? null)}.`,
        `${at}.type`,
      );
    }
    rejectUnknownKeys(tool, new Set(['type', 'function']), `${at}.`);
    const fn = requireKey(tool, 'function', `${at}.`);
    if (!isRecord(fn)) throw typeError(`${at}.function`, 'an object', fn);
    return { type: 'function', function: validateFunction(fn, `${at}.function.`) };
  });
}

/** Validates `tool_choice` against `names` (the declared tools); absent: 'auto'. */
export function validateToolChoice(choice: unknown, names: readonly string[], param = 'tool_choice'): ToolChoice {
  if (choice == null) return 'auto';
  if (choice === 'auto' || choice === 'none') return choice;
  const named = namedChoice(choice, param);
  if (names.length === 0) {
    throw new InvalidRequestError(
      `Invalid value for '${param}': '${param}' is only allowed when 'tools' are specified.`,
      param,
    );
  }
  if (named === null) return 'required';
  if (!names.includes(named)) {
    throw new InvalidRequestError(
      `Invalid value for '${param}': no function named '${named}' was specified in 'tools'.`,
      param,
    );
  }
  return { type: 'function', function: { name: named } };
}

/** null for 'required', else the named function. Chat nests the name; Responses does not. */
function namedChoice(choice: unknown, param: string): string | null {
  if (choice === 'required') return null;
  if (isRecord(choice) && choice.type === 'function') {
    const fn = choice.function;
    const name = isRecord(fn) ? fn.name : choice.name;
    if (typeof name === 'string') return name;
  }
  throw new InvalidRequestError(
    `Invalid value for '${param}': expected 'none', 'auto', 'required' or {"type": "function", "function": {"name": ...}}, but got ${describeValue(choice)}.`,
    param,
  );
}

export function typeError(param: string, expected: string, got: unknown): InvalidRequestError {
  return new InvalidRequestError(
    `Invalid type for '${param}': expected ${expected}, but got ${describeValue(got)} instead.`,
    param,
  );
}
