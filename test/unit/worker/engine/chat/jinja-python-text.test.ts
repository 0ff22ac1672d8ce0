/**
 * Values that are no string written as llama-server's Jinja writes them (Python's text), by the
 * `string` filter and where printed, in the engine's renders: LFM2.5's template writes a call's
 * arguments with the filter, MiniCPM5's prints them (and takes a list's `min`).
 */
import { readFileSync } from 'node:fs';
import { Template } from '@huggingface/jinja';
import { describe, expect, it } from 'vitest';
import { usePythonText } from '../../../../../worker/engine/chat/jinja-python-text';
import { renderChatTemplate } from '../../../../../worker/engine/chat/render-chat-template';

describe('usePythonText', () => {
  it("writes booleans, None, floats, lists, tuples and dicts as Python's str(), strings and numbers as they are", () => {
    usePythonText();
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

  it("prints values as llama-server's Jinja: booleans as Python's, a list's items one after another, a dict or None as nothing", () => {
    usePythonText();
    const values = { b: true, n: null, l: ['a', 1, false], d: { k: 'v' }, s: 'x', i: 3, f: 2.5 };
    const text = new Template(
      '{{ b }}|{{ n }}|{{ l }}|{{ d }}|{{ s }}|{{ i }}|{{ f }}|{% if b %}{{ l[2] }}{% endif %}',
    ).render(values);
    expect(text).toBe('True||a1False||x|3|2.5|False');
  });

  it("gives a list's least and greatest item (min, max) as Python's Jinja (strings case-insensitively), Undefined for an empty one", () => {
    usePythonText();
    expect(
      new Template('{{ [3, 1, 2] | min }} {{ [3, 1, 2] | max }} {{ ["b", "B", "a"] | min }} [{{ [] | min }}]').render(
        {},
      ),
    ).toBe('1 3 a []');
  });

  it("gives '' for a string filter on an undefined value, as Python's Undefined (the library refused it)", () => {
    usePythonText();
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
