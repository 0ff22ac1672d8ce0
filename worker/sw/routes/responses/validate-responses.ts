/**
 * Validates the stateless subset of a `/v1/responses` body and maps it onto a `ChatRequest`
 * (so rendering, generation and parsing are shared with chat). `previous_response_id` and
 * `conversation` are 400s; `store` is accepted but nothing is stored (responses say `store: false`),
 * and so are the other fields that cannot change the text (`advisory-fields.ts`).
 */
import { readGrammar } from '#core/openai/read-grammar';
import { InvalidRequestError } from '#core/domain/errors';
import { isRecord } from '#core/util/is-record';
import { rejectUnknownKeys, requireKey } from '#core/openai/parse-body';
import { parseField } from '../../format/parse-field';
import { integerField } from '#core/openai/fields';
import { ADVISORY_FIELDS } from '../../format/advisory-fields';
import { validateChat } from '../../conversation/validate-chat';
import { collectedMedia, newChatMedia } from '../../conversation/chat-media';
import { validateFunction, validateToolChoice, typeError } from '../../conversation/validate-chat-tools';
import { validateJsonSchemaSpec } from '../../conversation/validate-response-format';
import { withToolGrammar } from '../../conversation/tool-grammar';
import { responsesMessages } from './responses-input';
import type { ChatRequest, ResponseFormat } from '../../conversation/chat-types';

export interface ResponsesRequest {
  chat: ChatRequest;
  instructions: string | null;
  max_output_tokens: number | null;
  metadata: Record<string, string>;
}

const KEYS = new Set([
  'model',
  'input',
  'instructions',
  'max_output_tokens',
  'temperature',
  'top_p',
  'text',
  'tools',
  'tool_choice',
  'stream',
  'user',
  'parallel_tool_calls',
  'previous_response_id',
  'conversation',
  'reasoning',
  'include',
  'top_logprobs',
  'truncation',
  // store, metadata, service_tier, prompt_cache_key...: accepted, cannot change the text
  ...Object.keys(ADVISORY_FIELDS),
]);

export function validateResponses(body: unknown): ResponsesRequest {
  if (!isRecord(body)) throw new InvalidRequestError('The request body must be a JSON object.', null, 'invalid_json');
  rejectUnknownKeys(body, KEYS);
  for (const key of ['previous_response_id', 'conversation']) {
    if (body[key] != null) {
      throw new InvalidRequestError(
        `'${key}' is not supported: this endpoint is stateless and stores no responses; send the whole conversation in 'input'.`,
        key,
        'stateless_endpoint',
      );
    }
  }
  requireKey(body, 'model');
  const input = requireKey(body, 'input');
  for (const [key, schema] of Object.entries(ADVISORY_FIELDS)) parseField(schema, body[key], key);
  const include = includes(body.include);
  if (typeof body.top_logprobs === 'number' && body.top_logprobs > 0 && !include.includes(LOGPROBS)) {
    throw new InvalidRequestError(`'top_logprobs' requires 'include' to contain '${LOGPROBS}'.`, 'top_logprobs');
  }
  if (body.truncation != null && body.truncation !== 'disabled' && body.truncation !== 'auto') {
    throw new InvalidRequestError("Invalid value for 'truncation': expected 'auto' or 'disabled'.", 'truncation');
  }
  const instructions = body.instructions ?? null;
  if (instructions !== null && typeof instructions !== 'string')
    throw typeError('instructions', 'a string', instructions);
  const maxOutput =
    body.max_output_tokens == null
      ? null
      : parseField(integerField('max_output_tokens', 1), body.max_output_tokens, 'max_output_tokens');
  const tools = functionTools(body.tools);
  const toolChoice = validateToolChoice(
    body.tool_choice,
    tools.map((t) => t.function.name),
  );
  const media = newChatMedia();
  const chat = validateChat({
    model: body.model,
    messages: responsesMessages(input, instructions, media),
    temperature: body.temperature,
    top_p: body.top_p,
    max_tokens: maxOutput,
    stream: body.stream,
    user: body.user,
    parallel_tool_calls: body.parallel_tool_calls,
    reasoning_effort: reasoningEffort(body.reasoning),
    logprobs: include.includes(LOGPROBS) ? true : undefined,
    top_logprobs: body.top_logprobs,
  });
  const grammar = readGrammar({ text: body.text });
  return {
    chat: withToolGrammar(
      {
        ...chat,
        media: collectedMedia(media),
        tools,
        tool_choice: toolChoice,
        response_format: textFormat(body.text),
        grammar,
      },
      (i) => `tools[${i}].parameters`,
    ),
    instructions,
    max_output_tokens: maxOutput,
    metadata: metadata(body.metadata),
  };
}

/** `include` asks for output text logprobs; OpenAI's other values name data this endpoint never has (tool results, encrypted reasoning, images): accepted, nothing to add. */
const LOGPROBS = 'message.output_text.logprobs';
const INCLUDABLE = new Set([
  LOGPROBS,
  'reasoning.encrypted_content',
  'file_search_call.results',
  'web_search_call.results',
  'web_search_call.action.sources',
  'code_interpreter_call.outputs',
  'computer_call_output.output.image_url',
  'message.input_image.image_url',
]);

function includes(value: unknown): string[] {
  if (value == null) return [];
  if (!Array.isArray(value)) throw typeError('include', 'an array', value);
  return value.map((entry: unknown, i) => {
    if (typeof entry !== 'string' || !INCLUDABLE.has(entry)) {
      throw new InvalidRequestError(
        `Invalid value for 'include[${i}]': ${JSON.stringify(entry)} is not supported; supported: ${[...INCLUDABLE].map((v) => `'${v}'`).join(', ')}.`,
        'include',
      );
    }
    return entry;
  });
}

function functionTools(tools: unknown): ChatRequest['tools'] {
  if (tools == null) return [];
  if (!Array.isArray(tools)) throw typeError('tools', 'an array', tools);
  return tools.map((tool: unknown, i) => {
    if (!isRecord(tool) || tool.type !== 'function') {
      throw new InvalidRequestError(
        `Invalid value for 'tools[${i}]': only function tools ({"type": "function", "name": ...}) are supported.`,
        `tools[${i}]`,
      );
    }
    const { type: _type, ...fn } = tool;
    return { type: 'function', function: validateFunction(fn, `tools[${i}].`) };
  });
}

function textFormat(text: unknown): ResponseFormat {
  if (text == null) return { type: 'text' };
  if (!isRecord(text)) throw typeError('text', 'an object', text);
  rejectUnknownKeys(text, new Set(['format', 'verbosity']), 'text.');
  const format = text.format;
  if (format == null) return { type: 'text' };
  if (!isRecord(format)) throw typeError('text.format', 'an object', format);
  if (format.type === 'text' || format.type === 'json_object') return { type: format.type };
  if (format.type !== 'json_schema')
    throw new InvalidRequestError(
      "Invalid value for 'text.format.type': expected 'text', 'json_object' or 'json_schema'.",
      'text.format.type',
    );
  return { type: 'json_schema', json_schema: validateJsonSchemaSpec(format, 'text.format.', ['type']) };
}

function reasoningEffort(reasoning: unknown): unknown {
  if (reasoning == null) return undefined;
  if (!isRecord(reasoning)) throw typeError('reasoning', 'an object', reasoning);
  return reasoning.effort ?? undefined;
}

function metadata(value: unknown): Record<string, string> {
  if (value == null) return {};
  if (!isRecord(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    throw typeError('metadata', 'an object of string values', value);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}
