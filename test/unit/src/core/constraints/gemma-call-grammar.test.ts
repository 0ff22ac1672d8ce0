/** Tools -> Gemma 4's tool-call grammar (llama-server's): any dict in Gemma's notation; a strict tool is a 400. */
import { describe, expect, it } from 'vitest';
import { checkGbnf } from '../../../../../src/core/constraints/gbnf-check';
import { gemmaCallGrammar } from '../../../../../src/core/constraints/gemma-call-grammar';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';

const tool = { name: 'get_weather', param: 'tools[0].function.parameters' };

describe('gemmaCallGrammar', () => {
  it("writes <|tool_call>call:NAME{…}<tool_call|>, any dict in Gemma's notation, lazily from <|tool_call>", () => {
    const { gbnf, trigger } = gemmaCallGrammar({ tools: [tool], parallel: true, lazy: true });
    checkGbnf(gbnf, 'tools');
    expect(trigger).toBe('<|tool_call>');
    expect(gbnf).toContain('root ::= tool-call+\n');
    expect(gbnf).toContain('tool-call ::= "<|tool_call>call:" ( get-weather-call ) "<tool_call|>"\n');
    expect(gbnf).toContain('gemma4-value ::= gemma4-string | gemma4-dict | gemma4-array | number | boolean | null\n');
    expect(gemmaCallGrammar({ tools: [tool], parallel: false, lazy: false }).trigger).toBeNull();
  });

  it('refuses a strict tool with a 400 naming its strict flag: the grammar cannot hold its schema', () => {
    const strict = () => gemmaCallGrammar({ tools: [{ ...tool, strict: true }], parallel: false, lazy: false });
    expect(strict).toThrow(InvalidRequestError);
    expect(strict).toThrow(expect.objectContaining({ status: 400, param: 'tools[0].function.strict' }));
  });
});
