/** The llama-server request of one choice: a lazy grammar becomes grammar_lazy with a full-match trigger pattern. */
import { describe, expect, it } from 'vitest';
import { GREEDY } from '../../src/core/parameters';
import { toServerParams } from '../../worker/engine/backends/llamacpp/params';
import type { ChoiceRequest } from '../../worker/engine/backend';

const request: ChoiceRequest = {
  ...GREEDY,
  prompt: 'abc',
  max_tokens: 5,
  min_tokens: 0,
  suffix: null,
  ignore_eos: false,
  token_info: null,
  cache_prompt: true,
  grammar: { gbnf: 'root ::= "<tool_call>" "x"', param: 'tools' },
  logit_bias: {},
  seed: 0,
};

describe('toServerParams: grammars', () => {
  it('passes a grammar that applies from the first token as it is', () => {
    const params = toServerParams(request, 'abc', new AbortController().signal);
    expect(params.grammar).toBe(request.grammar?.gbnf);
    expect(params.grammar_lazy).toBeUndefined();
  });

  it('makes a triggered grammar lazy, triggered by a full-match pattern whose group starts the constrained text', () => {
    const lazy = {
      ...request,
      grammar: { gbnf: 'root ::= "<tool_call>" "x"', param: 'tools', trigger: '<tool_call>' },
    };
    const params = toServerParams(lazy, 'abc', new AbortController().signal);
    expect(params.grammar_lazy).toBe(true);
    expect(params.grammar_triggers).toHaveLength(1);
    const [trigger] = params.grammar_triggers ?? [];
    expect(trigger?.type).toBe(3);
    const match = new RegExp(`^(?:${trigger?.value})$`).exec('Sure.\n<tool_call>\n{');
    expect(match?.index).toBe(0);
    expect(match?.[1]).toBe('<tool_call>');
    expect(new RegExp(`^(?:${trigger?.value})$`).test('Sure. <tool_')).toBe(false);
  });
});
