/**
 * Jinja's `string` filter as llama-server's Jinja writes values that are no string (Python's text),
 * in the engine's renders: LFM2.5's template writes a call's arguments with it.
 */
import { readFileSync } from 'node:fs';
import { Template } from '@huggingface/jinja';
import { describe, expect, it } from 'vitest';
import { usePythonStringFilter } from '../../../../../worker/engine/chat/jinja-string-filter';
import { renderChatTemplate } from '../../../../../worker/engine/chat/render-chat-template';

describe('usePythonStringFilter', () => {
  it("writes booleans, None, floats, lists, tuples and dicts as Python's str(), strings and numbers as they are", () => {
    usePythonStringFilter();
    const values = {
      b: false,
      n: null,
      f: 2.5,
      i: 3,
      s: "it's",
      l: ['a', "it's", 1, true, null, { k: ['v'] }],
      d: { a: 1 },
    };
    const text = new Template(
      '{{ b | string }}|{{ n | string }}|{{ f | string }}|{{ i | string }}|{{ s | string }}|{{ l | string }}|{{ d | string }}|{{ l | tojson }}',
    ).render(values);
    expect(text).toBe(
      `False|None|2.5|3|it's|['a', "it's", 1, True, None, {'k': ['v']}]|{'a': 1}|["a", "it's", 1, true, null, {"k": ["v"]}]`,
    );
  });

  it("gives '' for a string filter on an undefined value, as Python's Undefined (the library refused it)", () => {
    usePythonStringFilter();
    expect(
      new Template('[{{ x.type | upper }}][{{ x.type | string }}][{{ x.name | lower }}]').render({ x: { name: 'A' } }),
    ).toBe('[][][a]');
  });

  it("renders an LFM2.5 call in the history as llama-server does (its arguments' True, None and lists)", () => {
    const source = readFileSync('test/fixtures/chat-templates/LFM2.5-8B-A1B.jinja', 'utf8');
    const call = {
      id: 'c1',
      type: 'function' as const,
      function: { name: 'f', arguments: '{"a":true,"b":null,"c":["x",1]}' },
    };
    const { segments } = renderChatTemplate(source, {
      messages: [
        { role: 'user', content: 'abc' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      ],
      tools: [],
      chat_template_kwargs: {},
      reasoning_effort: null,
    });
    const text = segments.map((segment) => segment.text).join('');
    expect(text).toContain("<|tool_call_start|>[f(a=True, b=None, c=['x', 1])]<|tool_call_end|>");
  });
});
