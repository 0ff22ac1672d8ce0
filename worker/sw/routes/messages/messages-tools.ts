/**
 * Anthropic's `tools` (`{name, description, input_schema}`, custom tools only) and `tool_choice`
 * (`auto`, `any`, `tool` with a name, `none`; `disable_parallel_tool_use`) as chat's function
 * tools and tool choice. A forced choice (`any`, `tool`) makes the tools it may call strict, so
 * the output is grammar-constrained to their calls from its first token, as strict tools are on
 * the chat route.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { isRecord } from '#core/util/is-record';
import { rejectUnknownKeys, requireKey } from '#core/openai/parse-body';
import { typeError, validateFunction } from '../../conversation/validate-chat-tools';
import type { FunctionTool, ToolChoice } from '../../conversation/chat-types';

const TOOL_KEYS = new Set(['type', 'name', 'description', 'input_schema', 'strict', 'cache_control']);

export function messagesTools(tools: unknown): FunctionTool[] {
  if (tools == null) return [];
  if (!Array.isArray(tools)) throw typeError('tools', 'an array', tools);
  return tools.map((tool: unknown, i) => {
    const at = `tools[${i}]`;
    if (!isRecord(tool)) throw typeError(at, 'an object', tool);
    if (tool.type != null && tool.type !== 'custom') {
      throw new InvalidRequestError(
        `${at}.type: ${JSON.stringify(tool.type)} tools run on Anthropic's servers and are not available here; declare custom tools ({name, description, input_schema}).`,
        `${at}.type`,
      );
    }
    rejectUnknownKeys(tool, TOOL_KEYS, `${at}.`);
    const schema = requireKey(tool, 'input_schema', `${at}.`);
    const fn = { name: tool.name, description: tool.description, parameters: schema, strict: tool.strict };
    return { type: 'function', function: validateFunction(fn, `${at}.`) };
  });
}

/** The chat tool choice and whether calls may be parallel. */
export interface MessagesToolChoice {
  choice: ToolChoice;
  parallel: boolean;
}

export function messagesToolChoice(value: unknown, tools: readonly FunctionTool[]): MessagesToolChoice {
  if (value == null) return { choice: 'auto', parallel: true };
  if (!isRecord(value)) throw typeError('tool_choice', 'an object', value);
  const { type } = value;
  rejectUnknownKeys(
    value,
    new Set(type === 'tool' ? ['type', 'name', 'disable_parallel_tool_use'] : ['type', 'disable_parallel_tool_use']),
    'tool_choice.',
  );
  const disable = value.disable_parallel_tool_use;
  if (disable != null && typeof disable !== 'boolean')
    throw typeError('tool_choice.disable_parallel_tool_use', 'a boolean', disable);
  const parallel = disable !== true;
  if (type === 'auto' || type === 'none') return { choice: type, parallel };
  if (type !== 'any' && type !== 'tool') {
    throw new InvalidRequestError(
      `tool_choice.type: expected 'auto', 'any', 'tool' or 'none', but got ${JSON.stringify(type ?? null)}.`,
      'tool_choice.type',
    );
  }
  if (tools.length === 0)
    throw new InvalidRequestError("tool_choice: a forced tool choice needs 'tools'.", 'tool_choice');
  if (type === 'any') return { choice: 'required', parallel };
  const name = requireKey(value, 'name', 'tool_choice.');
  if (typeof name !== 'string' || !tools.some((tool) => tool.function.name === name)) {
    throw new InvalidRequestError(
      `tool_choice.name: no tool named ${JSON.stringify(name)} is in 'tools'.`,
      'tool_choice.name',
    );
  }
  return { choice: { type: 'function', function: { name } }, parallel };
}

/** The tools a forced `choice` may call, made strict (their calls are then grammar-constrained). */
export function forcedStrict(tools: FunctionTool[], choice: ToolChoice): FunctionTool[] {
  if (choice === 'auto' || choice === 'none') return tools;
  return tools.map((tool) =>
    typeof choice === 'string' || tool.function.name === choice.function.name
      ? { ...tool, function: { ...tool.function, strict: true } }
      : tool,
  );
}
