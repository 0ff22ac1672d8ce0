/**
 * Builds the template variables from a chat request: messages (tool-call arguments parsed to
 * objects when they are JSON, as HF templates expect), tools, and kwargs. With a `wrap`
 * function every request string the template may print goes through it (see SentinelTable).
 */
import type { ChatMessage, ChatPrompt, FunctionTool } from '#core/domain/chat-prompt';
import { parseJsonObject } from '#core/util/parse-json-object';
import { thinkingTagsIn } from '#core/domain/thinking-tags';
import { isHarmonyTemplate, isLfm2Template, isMinistral3Template } from './tool-call-format';

/** The template's inputs (a chat prompt). */
export type TemplateRequest = ChatPrompt;

type Wrap = (text: string) => string;

/**
 * How a template reads an assistant message's reasoning, as llama-server hands it over:
 * `reasoning_content`; or `thinking` too, where it copies it there (its LFM2 and gpt-oss handlers,
 * common/parsers/lfm2.cpp and gpt-oss.cpp); `harmony`: `thinking`, and a message with calls and a
 * reasoning has no content (gpt-oss's template takes one or the other); `blocks`: the content of
 * system and assistant messages as blocks, a `thinking` block of the reasoning then a `text` block
 * of the content (its Ministral 3 handler, common/parsers/ministral3.cpp).
 */
export type ReasoningField = 'reasoning_content' | 'thinking' | 'harmony' | 'blocks';

/** The field `source` reads reasoning from, as llama-server hands it over. */
export function reasoningField(source: string): ReasoningField {
  if (isHarmonyTemplate(source)) return 'harmony';
  if (isMinistral3Template(source)) return 'blocks';
  return isLfm2Template(source) ? 'thinking' : 'reasoning_content';
}

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

/** `wrapId`: what goes round tool-call ids (`wrap` unless said); `reasoning`: where the template reads reasoning. */
export function templateInputs(
  request: TemplateRequest,
  wrap: Wrap = (s) => s,
  wrapId: Wrap = wrap,
  reasoning: ReasoningField = 'reasoning_content',
): Record<string, unknown> {
  const kwargs: Record<string, unknown> = { ...request.chat_template_kwargs };
  if (request.reasoning_effort !== null) {
    kwargs.reasoning_effort ??= request.reasoning_effort;
    if (request.reasoning_effort === 'none') kwargs.enable_thinking ??= false;
  }
  return {
    ...kwargs,
    messages: request.messages.map((m) => templateMessage(m, wrap, wrapId, reasoning)),
    ...(request.tools.length > 0 ? { tools: request.tools.map((t) => templateTool(t, wrap)) } : {}),
    add_generation_prompt: request.add_generation_prompt ?? true,
  };
}

function templateMessage(
  message: ChatMessage,
  wrap: Wrap,
  wrapId: Wrap,
  field: ReasoningField,
): Record<string, unknown> {
  switch (message.role) {
    case 'tool':
      return { role: 'tool', content: wrap(message.content), tool_call_id: wrapId(message.tool_call_id) };
    case 'assistant': {
      const reasoning = message.reasoning_content;
      const calls = (message.tool_calls?.length ?? 0) > 0;
      const contentless = field === 'harmony' && reasoning !== undefined && calls;
      const content = wrap(message.content ?? '');
      return {
        role: 'assistant',
        ...(contentless ? {} : { content: field === 'blocks' ? contentBlocks(content, reasoning, wrap) : content }),
        ...(message.name === undefined ? {} : { name: wrap(message.name) }),
        ...(reasoning === undefined || field === 'blocks' ? {} : { reasoning_content: wrap(reasoning) }),
        ...(reasoning === undefined || field === 'reasoning_content' || field === 'blocks'
          ? {}
          : { thinking: wrap(reasoning) }),
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
    }
    case 'system':
    case 'developer':
    case 'user': {
      const content = wrap(message.content);
      return {
        role: message.role,
        content: field === 'blocks' && message.role === 'system' ? contentBlocks(content, undefined, wrap) : content,
        ...(message.name === undefined ? {} : { name: wrap(message.name) }),
      };
    }
  }
}

/** A message's content as blocks: its reasoning's `thinking` block, where it has one, then its `text` block. */
function contentBlocks(text: string, reasoning: string | undefined, wrap: Wrap): Array<Record<string, string>> {
  const thinking = reasoning === undefined ? [] : [{ type: 'thinking', thinking: wrap(reasoning) }];
  return [...thinking, { type: 'text', text }];
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
