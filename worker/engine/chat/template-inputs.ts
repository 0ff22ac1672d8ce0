/**
 * Builds the template variables from a chat request: messages (tool-call arguments parsed to
 * objects when they are JSON, as HF templates expect), tools, and kwargs. With a `wrap`
 * function every request string the template may print goes through it (see SentinelTable).
 */
import type { ChatMessage, ChatPrompt, FunctionTool } from '#core/domain/chat-prompt';
import { parseJsonObject } from '#core/util/parse-json-object';
import { thinkingTagsIn } from '#core/domain/thinking-tags';

/** The template's inputs (a chat prompt). */
export type TemplateRequest = ChatPrompt;

type Wrap = (text: string) => string;

/**
 * `request` with `enable_thinking: true` where the template (`source`) writes reasoning in tags
 * this engine reads and the request does not say (its kwargs, or `reasoning_effort: "none"`), as
 * llama-server renders every template it finds reasoning in (its `enable_thinking` default): Gemma
 * 4's and DeepSeek V3.1's templates think only so; Qwen3's think unless it is false.
 */
export function withThinkingDefault(request: TemplateRequest, source: string): TemplateRequest {
  const said = 'enable_thinking' in request.chat_template_kwargs || request.reasoning_effort === 'none';
  if (said || thinkingTagsIn(source) === null) return request;
  return { ...request, chat_template_kwargs: { ...request.chat_template_kwargs, enable_thinking: true } };
}

/** `wrapId`: what goes round tool-call ids (`wrap` unless said). */
export function templateInputs(
  request: TemplateRequest,
  wrap: Wrap = (s) => s,
  wrapId: Wrap = wrap,
): Record<string, unknown> {
  const kwargs: Record<string, unknown> = { ...request.chat_template_kwargs };
  if (request.reasoning_effort !== null) {
    kwargs.reasoning_effort ??= request.reasoning_effort;
    if (request.reasoning_effort === 'none') kwargs.enable_thinking ??= false;
  }
  return {
    ...kwargs,
    messages: request.messages.map((m) => templateMessage(m, wrap, wrapId)),
    ...(request.tools.length > 0 ? { tools: request.tools.map((t) => templateTool(t, wrap)) } : {}),
    add_generation_prompt: request.add_generation_prompt ?? true,
  };
}

function templateMessage(message: ChatMessage, wrap: Wrap, wrapId: Wrap): Record<string, unknown> {
  switch (message.role) {
    case 'tool':
      return { role: 'tool', content: wrap(message.content), tool_call_id: wrapId(message.tool_call_id) };
    case 'assistant':
      return {
        role: 'assistant',
        content: wrap(message.content ?? ''),
        ...(message.name === undefined ? {} : { name: wrap(message.name) }),
        ...(message.reasoning_content === undefined ? {} : { reasoning_content: wrap(message.reasoning_content) }),
        ...(message.tool_calls === undefined
          ? {}
          : {
              tool_calls: message.tool_calls.map((call) => ({
                id: wrapId(call.id),
                type: 'function',
                function: { name: wrap(call.function.name), arguments: parsedArguments(call.function.arguments, wrap) },
              })),
            }),
      };
    case 'system':
    case 'developer':
    case 'user':
      return {
        role: message.role,
        content: wrap(message.content),
        ...(message.name === undefined ? {} : { name: wrap(message.name) }),
      };
  }
}

/** JSON arguments become an object whose string leaves are wrapped; anything else stays a string. */
function parsedArguments(args: string, wrap: Wrap): unknown {
  const parsed = parseJsonObject(args);
  // Not a JSON object: the template prints the string as it is.
  return parsed === null ? wrap(args) : mapStrings(parsed, wrap);
}

function mapStrings(value: unknown, wrap: Wrap): unknown {
  if (typeof value === 'string') return wrap(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, wrap));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, wrap)]));
  }
  return value;
}

/**
 * Tools as llama-server hands them to templates: `{type, function: {name, description,
 * parameters}}`, a missing description `""` and missing parameters `{}`, `strict` left out (a
 * template printing `tool | tojson` prints the same JSON). The name and every `description` are
 * wrapped; schema keywords stay real for templates that inspect them.
 */
function templateTool(tool: FunctionTool, wrap: Wrap): Record<string, unknown> {
  const { name, description, parameters } = tool.function;
  return {
    type: 'function',
    function: {
      name: wrap(name),
      description: wrap(description ?? ''),
      parameters: wrapDescriptions(parameters ?? {}, wrap),
    },
  };
}

function wrapDescriptions(value: unknown, wrap: Wrap): unknown {
  if (Array.isArray(value)) return value.map((v) => wrapDescriptions(v, wrap));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === 'description' && typeof v === 'string' ? wrap(v) : wrapDescriptions(v, wrap),
    ]),
  );
}
