/**
 * Tools' grammar in the model's format: kept as the SW built it (Hermes's) for Hermes templates,
 * built again for another read format, none for a lazy one without an opening text, and for a
 * template whose format is not read, kept only where a tool is strict.
 */
import { describe, expect, it } from 'vitest';
import { toolCallGrammar, type ToolCallOptions } from '../../../../../src/core/constraints/tool-call-grammar';
import type { OutputGrammar } from '../../../../../src/core/domain/generation';
import { HERMES_TOOL_FORMAT, TAGGED_TOOL_FORMAT } from '../../../../../src/core/domain/tool-call-format';
import { chatToolGrammar } from '../../../../../worker/engine/chat/chat-tool-grammar';

const LLAMA = { open: '', close: '', args: 'parameters', array: false };
const tool = (strict: boolean) => ({ name: 'f', strict, param: 'tools[0].function.parameters' });

function sent(tools: ToolCallOptions): OutputGrammar {
  const built = toolCallGrammar(tools);
  if (built === null) throw new Error('no grammar');
  return built.trigger === null
    ? { gbnf: built.gbnf, param: 'tools', afterReasoning: true, tools }
    : { gbnf: built.gbnf, param: 'tools', trigger: built.trigger, tools };
}

describe('chatToolGrammar', () => {
  const required = sent({ tools: [tool(false)], parallel: false, lazy: false });
  const lazy = sent({ tools: [tool(false)], parallel: false, lazy: true });

  it("keeps Hermes's grammar for a Hermes template, and any grammar that is not the tools'", () => {
    expect(chatToolGrammar(required, HERMES_TOOL_FORMAT)).toBe(required);
    const json = { gbnf: 'root ::= "{}"', param: 'response_format', schema: {} };
    expect(chatToolGrammar(json, null)).toBe(json);
  });

  it('builds it again in another read format; a lazy one there without an opening text is none', () => {
    const llama = chatToolGrammar(required, LLAMA);
    expect(llama?.gbnf).toContain('parameters');
    expect(llama?.gbnf).not.toContain('tool_call');
    expect(llama?.afterReasoning).toBe(true);
    expect(chatToolGrammar(lazy, LLAMA)).toBeNull();
  });

  it('builds tagged calls for a tagged format (Qwen3.5)', () => {
    const tagged = chatToolGrammar(lazy, TAGGED_TOOL_FORMAT);
    expect(tagged?.gbnf).toContain('<function=f>');
    expect(tagged?.trigger).toBe('<tool_call>');
  });

  it("holds only strict tools, to Hermes's, where the template writes no call", () => {
    expect(chatToolGrammar(required, null)).toBeNull();
    const strict = sent({ tools: [tool(true), tool(false)], parallel: false, lazy: true });
    expect(chatToolGrammar(strict, null)).toBe(strict);
  });
});
