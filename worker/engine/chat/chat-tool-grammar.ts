/**
 * Tools' grammar in the model's own tool-call format. The SW built it as Hermes's `<tool_call>`
 * blocks (its schemas checked there); where the model's template writes calls otherwise
 * (tool-call-format.ts: Llama 3.x's bare JSON, Mistral's `[TOOL_CALLS]` array, Qwen3.5's tagged
 * calls, LFM2's Python-style list, Gemma 4's notation, MiniCPM5's XML, gpt-oss's harmony messages), it is built again in that format. A lazy grammar in a format without an opening text is
 * none, as on llama-server (which builds no grammar for tool_choice `auto` without a trigger).
 * Where the template writes no call, tools that are not strict are not held at all.
 */
import { gemmaCallGrammar } from '#core/constraints/gemma-call-grammar';
import { harmonyCallGrammar } from '#core/constraints/harmony-call-grammar';
import { pythonCallGrammar } from '#core/constraints/python-call-grammar';
import { taggedCallGrammar } from '#core/constraints/tagged-call-grammar';
import { toolCallGrammar } from '#core/constraints/tool-call-grammar';
import { xmlCallGrammar } from '#core/constraints/xml-call-grammar';
import type { OutputGrammar } from '#core/domain/generation';
import { sameToolFormat, HERMES_TOOL_FORMAT, type ToolCallFormat } from '#core/domain/tool-call-format';

export function chatToolGrammar(grammar: OutputGrammar, format: ToolCallFormat | null): OutputGrammar | null {
  if (grammar.tools === undefined) return grammar;
  // A template that writes no call: only strict tools are held, to Hermes's blocks; others stay free.
  if (format === null) return grammar.tools.tools.some((tool) => tool.strict === true) ? grammar : null;
  if (sameToolFormat(format, HERMES_TOOL_FORMAT)) return grammar;
  const built =
    format.syntax === 'tagged'
      ? taggedCallGrammar(grammar.tools)
      : format.syntax === 'python'
        ? pythonCallGrammar(grammar.tools)
        : format.syntax === 'gemma'
          ? gemmaCallGrammar(grammar.tools)
          : format.syntax === 'xml'
            ? xmlCallGrammar(grammar.tools)
            : format.syntax === 'harmony'
              ? harmonyCallGrammar(grammar.tools)
              : toolCallGrammar(grammar.tools, format);
  if (built === null) return null;
  const { gbnf, trigger } = built;
  const { trigger: _hermes, ...rest } = grammar;
  return trigger === null ? { ...rest, gbnf } : { ...rest, gbnf, trigger };
}
