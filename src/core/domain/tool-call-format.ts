/**
 * How a chat template writes a tool call, as llama-server's template analysis finds it for the
 * JSON-native formats (common/chat-auto-parser: `JSON_NATIVE`, with or without a section tag): a
 * JSON object `{"name": <fn>, <args>: {...}}`, alone or after an opening text, one per call or all
 * in one array. The engine finds it from the template (worker/engine/chat/tool-call-format.ts);
 * the SW's parser reads calls in it, and strict tools' grammar writes them in it.
 *
 * @example
 * HERMES_TOOL_FORMAT // Qwen 2.5/3, Hermes: <tool_call>\n{"name": "f", "arguments": {...}}\n</tool_call>
 * { open: '', close: '', args: 'parameters', array: false } // Llama 3.x: {"name": "f", "parameters": {...}}
 * { open: '[TOOL_CALLS]', close: '', args: 'arguments', array: true } // Mistral Nemo: [TOOL_CALLS][{...}, {...}]
 * TAGGED_TOOL_FORMAT // Qwen3.5: <tool_call>\n<function=f>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>
 * PYTHON_TOOL_FORMAT // LFM2: <|tool_call_start|>[f(city='Paris', days=3), g()]<|tool_call_end|>
 * { open: '[TOOL_CALLS]', close: '', args: '[ARGS]', array: false, syntax: 'named' } // Ministral 3, Devstral: [TOOL_CALLS]f[ARGS]{...}
 * GEMMA_TOOL_FORMAT // Gemma 4: <|tool_call>call:f{city:<|"|>Paris<|"|>,days:3}<tool_call|>
 * XML_TOOL_FORMAT // MiniCPM5: <function name="f"><param name="city">Paris</param><param name="days">3</param></function>
 * HARMONY_TOOL_FORMAT // gpt-oss: <|start|>assistant to=functions.f<|channel|>commentary json<|message|>{"city": "Paris"}
 */
export interface ToolCallFormat {
  /** The text before a call (before the array of calls where `array`); '' where a call is bare JSON. */
  readonly open: string;
  /** The text after a call (after the array); '' where the JSON's end ends it. */
  readonly close: string;
  /**
   * The key of the call's arguments object: `arguments`, or `parameters` (Llama 3.x); in the
   * `named` syntax, the text between the name and the arguments (Mistral's `[ARGS]`).
   */
  readonly args: string;
  /** The calls are one JSON array after `open` (`[{...}, {...}]`). */
  readonly array: boolean;
  /**
   * How a call is written where it is not JSON (absent: JSON):
   * - `tagged`: `<function=NAME>` and one `<parameter=KEY>\nVALUE\n</parameter>` per argument, its
   *   value typed by the tool's schema (Qwen3-Coder's and Qwen3.5's templates, which llama-server
   *   reads with its own parser: common/parsers/qwen3-coder.cpp);
   * - `python`: `NAME(KEY=VALUE, …)`, each value a Python literal or JSON (LFM2's and LFM2.5's
   *   templates; llama-server's common/parsers/lfm2.cpp);
   * - `named`: the name as text, `args`, then the arguments' JSON object, after `open` each
   *   (Mistral's `[TOOL_CALLS]f[ARGS]{...}`: Ministral 3, Devstral, Mistral Small 3.2, whose
   *   `[CALL_ID]` before `[ARGS]` is `idTag`);
   * - `gemma`: the name, then the arguments in Gemma's own notation (`{key:value,…}`, strings between
   *   `<|"|>`), after `open` each (Gemma 4's template; llama-server's common/parsers/gemma4.cpp);
   * - `xml`: the name, `">`, then one `<param name="KEY">VALUE</param>` per argument, after `open`
   *   each: a value that may be a string is its text (or a `<![CDATA[…]]>` of it), any other its
   *   JSON (MiniCPM5's template; llama-server's common/parsers/minicpm5.cpp);
   * - `harmony`: OpenAI's harmony messages, whose headers name the call's recipient
   *   (`to=functions.NAME`) and whose body is its arguments' JSON; reasoning and answer are
   *   messages too, on their channels (gpt-oss's template; llama-server's common/parsers/gpt-oss.cpp).
   *   The SW reads them with a parser of its own (harmony-output-parser.ts).
   */
  readonly syntax?: 'tagged' | 'python' | 'named' | 'gemma' | 'xml' | 'harmony';
  /** In the `named` syntax, the text that opens a call's id between its name and `args` (`[CALL_ID]`). */
  readonly idTag?: string;
  /**
   * The length of the call ids the template takes, letters and digits only (Mistral's: 9; it
   * refuses a turn with any other), so the calls' ids are made so; absent: `call_…` ids.
   */
  readonly ids?: number;
}

/** Hermes/Qwen's `<tool_call>` blocks: the format of a template that shows none (the default). */
export const HERMES_TOOL_FORMAT: ToolCallFormat = {
  open: '<tool_call>',
  close: '</tool_call>',
  args: 'arguments',
  array: false,
};

/** Qwen3-Coder's and Qwen3.5's `<tool_call>\n<function=…>` calls. */
export const TAGGED_TOOL_FORMAT: ToolCallFormat = { ...HERMES_TOOL_FORMAT, syntax: 'tagged' };

/** LFM2's and LFM2.5's Python-style calls, all in one list: `<|tool_call_start|>[f(a='x'), g(b=1)]<|tool_call_end|>`. */
export const PYTHON_TOOL_FORMAT: ToolCallFormat = {
  open: '<|tool_call_start|>',
  close: '<|tool_call_end|>',
  args: 'arguments',
  array: true,
  syntax: 'python',
};

/** Gemma 4's calls: `<|tool_call>call:f{city:<|"|>Paris<|"|>}<tool_call|>`, one block per call. */
export const GEMMA_TOOL_FORMAT: ToolCallFormat = {
  open: '<|tool_call>call:',
  close: '<tool_call|>',
  args: '',
  array: false,
  syntax: 'gemma',
};

/** MiniCPM5's calls: `<function name="f"><param name="city">Paris</param></function>`, each on its own. */
export const XML_TOOL_FORMAT: ToolCallFormat = {
  open: '<function name="',
  close: '</function>',
  args: '',
  array: false,
  syntax: 'xml',
};

/** gpt-oss's harmony calls: a message to `functions.NAME` (in its role or its channel header), its body the arguments. */
export const HARMONY_TOOL_FORMAT: ToolCallFormat = {
  open: ' to=functions.',
  close: '',
  args: '',
  array: false,
  syntax: 'harmony',
};

/** Whether two formats are the same. */
export function sameToolFormat(a: ToolCallFormat, b: ToolCallFormat): boolean {
  return (
    a.open === b.open &&
    a.close === b.close &&
    a.args === b.args &&
    a.array === b.array &&
    a.syntax === b.syntax &&
    a.idTag === b.idTag &&
    a.ids === b.ids
  );
}
