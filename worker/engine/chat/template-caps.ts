/**
 * What a chat template can render, as llama-server's `/props` reports it (`chat_template_caps`):
 * each capability is probed by rendering the template on a small conversation whose strings are
 * unique markers, and asking whether the marker reached the output (llama.cpp watches which
 * inputs the template reads; a marker that is printed was read). A render that fails says the
 * template cannot take that shape. Keys in llama-server's order (alphabetical).
 */
import { Template } from '@huggingface/jinja';
import type { TemplateCaps } from '#core/domain/tokenize';
import type { SpecialTokens } from './render-chat-template';

const MARK = '\u2063caps';
const mark = (name: string) => `${MARK}_${name}\u2063`;

const user = (content: unknown) => ({ role: 'user', content });
const call = (name: string, args: Record<string, unknown>) => ({
  id: `${name}_id`,
  type: 'function',
  function: { name: mark(name), arguments: args },
});
const TOOL = {
  type: 'function',
  function: {
    name: mark('tool'),
    description: 'A tool.',
    parameters: { type: 'object', properties: { arg: { type: 'string' } }, required: ['arg'] },
  },
};

export function templateCaps(source: string, tokens: SpecialTokens = {}): TemplateCaps {
  let template: Template;
  try {
    template = new Template(source);
  } catch {
    return capsOf(() => null);
  }
  return capsOf((inputs) => {
    try {
      return template.render({
        bos_token: tokens.bos_token ?? '',
        eos_token: tokens.eos_token ?? '',
        add_generation_prompt: true,
        // As llama.cpp probes: a (maybe empty) tools list in every render.
        tools: [],
        ...inputs,
      });
    } catch {
      return null;
    }
  });
}

const systemRoles = new Map<string, boolean>();

/** Whether `source` renders a system message (`supports_system_role`), from a small cache. */
export function supportsSystemRole(source: string, tokens: SpecialTokens = {}): boolean {
  let known = systemRoles.get(source);
  if (known === undefined) {
    known = templateCaps(source, tokens).supports_system_role;
    if (systemRoles.size >= 8) systemRoles.clear();
    systemRoles.set(source, known);
  }
  return known;
}

type Render = (inputs: Record<string, unknown>) => string | null;

function capsOf(render: Render): TemplateCaps {
  const shows = (out: string | null, name: string) => out?.includes(mark(name)) ?? false;
  const plain = render({ messages: [user(mark('string'))] });
  const typed = render({ messages: [user([{ type: 'text', text: mark('typed') }])] });
  const system = render({ messages: [{ role: 'system', content: mark('system') }, user('u')] });
  const tools = render({ messages: [user('u')], tools: [TOOL] });
  const calls = render({
    messages: [
      user('u'),
      {
        role: 'assistant',
        content: '',
        tool_calls: [call('call1', { [mark('arg')]: 'v' }), call('call2', { arg: 'v' })],
      },
      { role: 'tool', content: 'r', tool_call_id: 'call1_id' },
      user('u'),
    ],
    tools: [TOOL],
  });
  const reasoning = render({
    messages: [user('u'), { role: 'assistant', content: 'a', reasoning_content: mark('reasoning') }, user('u')],
  });
  const effort = (level: string) => render({ messages: [user('u')], reasoning_effort: level });
  const [low, high] = [effort('low'), effort('high')];
  return {
    // The arguments printed as JSON (the template serialized the object), not as a string of it.
    supports_object_arguments: calls?.includes(`"${mark('arg')}"`) ?? false,
    supports_parallel_tool_calls: shows(calls, 'call2'),
    supports_preserve_reasoning: shows(reasoning, 'reasoning'),
    supports_reasoning_effort: low !== null && high !== null && low !== high,
    supports_string_content: plain !== null,
    supports_system_role: shows(system, 'system'),
    supports_tool_calls: shows(calls, 'call1'),
    supports_tools: shows(tools, 'tool'),
    // The text of a typed part printed alone (not the parts' repr around it).
    supports_typed_content:
      shows(typed, 'typed') && !(typed ?? '').includes('"type"') && !(typed ?? '').includes("'type'"),
  };
}
