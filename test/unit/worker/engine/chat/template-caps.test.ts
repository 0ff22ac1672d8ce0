/**
 * `chat_template_caps` probed by rendering: a template that only joins contents renders a system
 * message and string content and nothing else; one that prints tools and tool calls as JSON (the
 * shape of Qwen3's) supports tools, calls, parallel calls and object arguments; one that reads
 * typed parts, one that keeps reasoning in the history, one that branches on the effort; a
 * template that does not parse supports nothing. The real templates are compared with
 * llama-server's own answer in test/e2e/llama-server-differential.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { templateCaps } from '../../../../../worker/engine/chat/template-caps';

const JOIN = '{% for m in messages %}{{ m.content }}{% endfor %}';
const TOOLS = [
  '{% for t in tools %}{{ t | tojson }}{% endfor %}',
  '{% for m in messages %}{{ m.content }}',
  '{% if m.tool_calls %}{% for c in m.tool_calls %}{{ c.function.name }}{{ c.function.arguments | tojson }}{% endfor %}{% endif %}',
  '{% endfor %}',
].join('');

describe('templateCaps', () => {
  it('a template that joins the contents: system role and string content only', () => {
    expect(templateCaps(JOIN)).toEqual({
      supports_object_arguments: false,
      supports_parallel_tool_calls: false,
      supports_preserve_reasoning: false,
      supports_reasoning_effort: false,
      supports_string_content: true,
      supports_system_role: true,
      supports_tool_calls: false,
      supports_tools: false,
      supports_typed_content: false,
    });
  });

  it('tools and tool calls printed as JSON: tools, calls, parallel calls, object arguments', () => {
    expect(templateCaps(TOOLS)).toMatchObject({
      supports_tools: true,
      supports_tool_calls: true,
      supports_parallel_tool_calls: true,
      supports_object_arguments: true,
    });
  });

  it('typed parts, reasoning in the history, the effort: each where the template reads it', () => {
    const typed = '{% for m in messages %}{% for p in m.content %}{{ p.text }}{% endfor %}{% endfor %}';
    expect(templateCaps(typed)).toMatchObject({ supports_typed_content: true });
    const reasoning = '{% for m in messages %}{{ m.reasoning_content }}{{ m.content }}{% endfor %}';
    expect(templateCaps(reasoning)).toMatchObject({ supports_preserve_reasoning: true });
    const effort = '{{ reasoning_effort }}{% for m in messages %}{{ m.content }}{% endfor %}';
    expect(templateCaps(effort)).toMatchObject({ supports_reasoning_effort: true });
  });

  it('a template that does not parse: nothing', () => {
    expect(Object.values(templateCaps('{% for %}')).some(Boolean)).toBe(false);
  });
});
