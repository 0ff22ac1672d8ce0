/**
 * The tool-call format a chat template writes, found as llama-server's template analysis finds it
 * (common/chat-diff-analyzer.cpp): render a conversation whose last assistant turn is one call,
 * and the same with a text answer instead; what differs is the call as the template writes it.
 * In it, the JSON object that holds the call's name and its arguments (as markers) gives the
 * arguments' key, and the text around it the call's opening and closing text (an array around the
 * object: the calls go in one array). Qwen3-Coder's tagged calls (`<function=…>`) are found by
 * their tags, LFM2's Python-style calls by the text of its tool list, Gemma 4's by their opening
 * text, MiniCPM5's XML calls by their tags and its tool guidelines and gpt-oss's harmony messages by
 * their channel token, as llama-server finds them.
 * A template that writes no call, or writes it otherwise,
 * has none here: the caller takes Hermes's.
 *
 * @example
 * toolCallFormat(LLAMA_3_2) // { open: '', close: '', args: 'parameters', array: false }
 */
import { Template } from '@huggingface/jinja';
import {
  GEMMA_TOOL_FORMAT,
  HARMONY_TOOL_FORMAT,
  PYTHON_TOOL_FORMAT,
  TAGGED_TOOL_FORMAT,
  XML_TOOL_FORMAT,
  type ToolCallFormat,
} from '#core/domain/tool-call-format';
import { jsonValueEnd } from '#core/util/json-value-end';
import { parseJsonObject } from '#core/util/parse-json-object';
import { usePythonText } from './jinja-python-text';
import type { SpecialTokens } from './render-chat-template';

const NAME = 'zq_tool_fn';
const ARG = 'zq_arg';
const VALUE = 'zq_value';
/** Nine letters and digits: Mistral's templates refuse any other call id. */
const CALL_ID = 'zqcallid1';
/** An OpenAI-shaped id (`call_` and 24 more), which such a template refuses. */
const LONG_ID = 'call_zqcallidzqcallidzqcallid';
const TOOL = {
  type: 'function',
  function: {
    name: NAME,
    description: 'A tool.',
    parameters: { type: 'object', properties: { [ARG]: { type: 'string' } }, required: [ARG] },
  },
};
const USER = { role: 'user', content: 'zq_user' };
const ANSWER = 'zq_answer';

const found = new Map<string, ToolCallFormat | null>();

/** The format of `source`'s tool calls, or null where it writes none in a JSON-native format. */
export function toolCallFormat(source: string, tokens: SpecialTokens = {}): ToolCallFormat | null {
  const known = found.get(source);
  if (known !== undefined) return known;
  const format = analyse(source, tokens);
  if (found.size >= 8) found.clear();
  found.set(source, format);
  return format;
}

/** llama-server's test for Gemma 4's template (common/chat.cpp): its call's opening text, written as one string. */
export const isGemma4Template = (source: string): boolean => source.includes("'<|tool_call>call:'");

/** llama-server's tests for LFM2's templates (its tool list between tokens) and LFM2.5's (plain). */
export function isLfm2Template(source: string): boolean {
  const toolList = source.includes('<|tool_list_start|>') && source.includes('<|tool_list_end|>');
  return toolList || source.includes('List of tools: [');
}

/**
 * llama-server's test for Ministral 3's and Devstral's templates (common/chat.cpp): `[SYSTEM_PROMPT]`,
 * `[TOOL_CALLS]` and `[ARGS]`, without Mistral Small 3.2's `[CALL_ID]`.
 */
export function isMinistral3Template(source: string): boolean {
  return (
    ['[SYSTEM_PROMPT]', '[TOOL_CALLS]', '[ARGS]'].every((tag) => source.includes(tag)) && !source.includes('[CALL_ID]')
  );
}

/** llama-server's test for gpt-oss's template (common/chat.cpp): harmony's channel token. */
export const isHarmonyTemplate = (source: string): boolean => source.includes('<|channel|>');

function analyse(source: string, tokens: SpecialTokens): ToolCallFormat | null {
  if (isHarmonyTemplate(source)) return HARMONY_TOOL_FORMAT;
  if (isLfm2Template(source)) return PYTHON_TOOL_FORMAT;
  // Its test for Gemma 4's template, which writes the call's opening text as one string.
  if (isGemma4Template(source)) return GEMMA_TOOL_FORMAT;
  // Its test for MiniCPM5's template (its tool guidelines, and its calls' tags).
  if (['Tool usage guidelines:', '<function name="', '<param name="'].every((text) => source.includes(text)))
    return XML_TOOL_FORMAT;
  // llama-server's test for Qwen3-Coder's tagged calls (common/chat.cpp), which its analysis does not read either.
  const tagged = ['<tool_call>', '<function=', '<parameter='].every((tag) => source.includes(tag));
  if (tagged && !source.includes("'<tool_call><function=' ~ tool_call.name ~ '>'")) return TAGGED_TOOL_FORMAT;
  // Its renders write values as the engine's prompt renders do (as llama-server's Jinja).
  usePythonText();
  let template: Template;
  try {
    template = new Template(source);
  } catch {
    return null;
  }
  const render = (tools: unknown[], assistant: Record<string, unknown>): string | null => {
    try {
      return template.render({
        bos_token: tokens.bos_token ?? '',
        eos_token: tokens.eos_token ?? '',
        add_generation_prompt: false,
        tools,
        messages: [USER, { role: 'assistant', ...assistant }],
      });
    } catch {
      return null;
    }
  };
  const call = { id: CALL_ID, type: 'function', function: { name: NAME, arguments: { [ARG]: VALUE } } };
  // With the tool listed, else with none (a template may refuse a tool's shape); some templates
  // print a call's content, some refuse an empty or a null one: either will do.
  const withCalls = (tools: unknown[], id: string, count = 1) => {
    const calls = Array.from({ length: count }, () => ({ ...call, id }));
    return render(tools, { content: '', tool_calls: calls }) ?? render(tools, { content: null, tool_calls: calls });
  };
  for (const tools of [[TOOL], []]) {
    const called = withCalls(tools, CALL_ID);
    const answered = render(tools, { content: ANSWER });
    if (called === null || answered === null) continue;
    const format = formatIn(difference(called, answered), tokens.eos_token ?? '');
    if (format?.syntax === 'named' && !repeats(format, withCalls(tools, CALL_ID, 2))) return null;
    // A template that refuses a longer id (Mistral's) takes ids of the length it took.
    return format && withCalls(tools, LONG_ID) === null ? { ...format, ids: CALL_ID.length } : format;
  }
  return null;
}

/**
 * Whether two calls render as the one, twice (Mistral's `[TOOL_CALLS]f[ARGS]{…}[TOOL_CALLS]f[ARGS]{…}`),
 * as the `named` reading takes them: not where the calls share one section (DeepSeek V3.1's
 * `<｜tool▁calls▁begin｜>`, Functionary 3.1's closing `<|eom_id|>`) or are numbered (Kimi K2's
 * `functions.f:0`, `functions.f:1`).
 */
function repeats(format: ToolCallFormat, twice: string | null): boolean {
  const count = (part: string) => (twice === null ? 0 : twice.split(part).length - 1);
  return (
    count(`${format.open}${NAME}${format.idTag ?? format.args}`) === 2 &&
    (format.close === '' || count(format.close) === 2)
  );
}

/**
 * The part of `a` that differs from `b`: their common start and end cut off, each cut moved out of
 * a tag it falls in (`<TOOLCALL>` against `<think>` shares the `<`, `<end>` against `</think>` the `>`).
 */
function difference(a: string, b: string): string {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end += 1;
  let stop = a.length - end;
  for (const [open, close] of [
    ['<', '>'],
    ['[', ']'],
  ] as const) {
    const before = a.lastIndexOf(open, start - 1);
    if (before >= 0 && a.lastIndexOf(close, start - 1) < before) start = before;
    const inside = a.lastIndexOf(open, stop - 1);
    const after = a.indexOf(close, stop);
    if (inside >= start && a.lastIndexOf(close, stop - 1) < inside && after >= 0) stop = after + 1;
  }
  return a.slice(start, stop);
}

/**
 * The format of the call written in `text`, or null where it is not one JSON object of name and
 * arguments (or a name then a JSON object of arguments) between markers (text without whitespace, such as `<tool_call>`; the end of the
 * model's turn, `eos`, is not part of the call).
 */
function formatIn(text: string, eos: string): ToolCallFormat | null {
  const at = text.indexOf(`"${NAME}"`);
  if (at < 0) return namedFormatIn(text, eos);
  for (let start = text.lastIndexOf('{', at); start >= 0; start = text.lastIndexOf('{', start - 1)) {
    const end = jsonValueEnd(text, start);
    if (end <= at) continue;
    const args = argsKey(text.slice(start, end));
    if (args === null) return null;
    let before = text.slice(0, start).trim();
    let after = withoutEos(text.slice(end).trim(), eos);
    const array = before.endsWith('[') && after.startsWith(']');
    if (array) {
      before = before.slice(0, -1).trim();
      after = after.slice(1).trim();
    }
    if (/\s/.test(before) || /\s/.test(after)) return null;
    return { open: before, close: after, args, array };
  }
  return null;
}

/**
 * The format of a call written as its name, a marker and then its arguments' JSON object
 * (Mistral's `[TOOL_CALLS]NAME[ARGS]{...}`, with `[CALL_ID]ID` between on Mistral Small 3.2), as
 * llama-server's analysis reads a function name in a tag; null for any other text.
 */
function namedFormatIn(text: string, eos: string): ToolCallFormat | null {
  const at = text.indexOf(NAME);
  const start = text.indexOf('{', at);
  if (at < 0 || start < 0) return null;
  const end = jsonValueEnd(text, start);
  const args = end < 0 ? null : parseJsonObject(text.slice(start, end));
  if (args === null || Object.keys(args).length !== 1 || !isArgs(args)) return null;
  const open = text.slice(0, at).trim();
  let between = text.slice(at + NAME.length, start);
  const close = withoutEos(text.slice(end).trim(), eos);
  const id = between.indexOf(CALL_ID);
  const idTag = id < 0 ? '' : between.slice(0, id);
  if (id >= 0) between = between.slice(id + CALL_ID.length);
  // Markers only (no whitespace, no call id before the name): as Mistral's.
  const parts = [open, between, close, idTag];
  if (open === '' || between === '' || open.includes(CALL_ID) || parts.some((part) => /\s/.test(part))) return null;
  const format: ToolCallFormat = { open, close, args: between, array: false, syntax: 'named' };
  return idTag === '' ? format : { ...format, idTag };
}

/** `after` up to the end of the model's turn (`eos`), which is no part of the call. */
function withoutEos(after: string, eos: string): string {
  return eos !== '' && after.includes(eos) ? after.slice(0, after.indexOf(eos)).trim() : after;
}

/**
 * The arguments' key of a call object `{"name": <NAME>, <key>: {<ARG>: <VALUE>}}` (an `id` may be
 * there too, as Mistral's templates write it), or null for any other object.
 */
function argsKey(json: string): string | null {
  const parsed = parseJsonObject(json);
  if (parsed === null) return null;
  const entries = Object.entries(parsed);
  if (entries[0]?.[0] !== 'name' || entries[0][1] !== NAME) return null;
  const args = entries[1];
  const rest = entries.slice(2);
  if (args === undefined || !isArgs(args[1]) || rest.some(([key]) => key !== 'id')) return null;
  return args[0];
}

function isArgs(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Reflect.get(value, ARG) === VALUE;
}
