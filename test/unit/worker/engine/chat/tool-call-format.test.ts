/**
 * The tool-call format found in real models' chat templates (test/fixtures/chat-templates, as
 * llama.cpp keeps them): Qwen 2.5/3 and Hermes 3 write `<tool_call>` blocks, Llama 3.1/3.2 bare
 * JSON with `parameters`, Mistral Nemo one array after `[TOOL_CALLS]`, Qwen3.5 tagged calls
 * (`<function=…>`, found by its tags as llama-server finds them), LFM2 and LFM2.5 Python-style
 * calls (found by their tool list, as llama-server finds them: LFM2's template writes no call),
 * Ministral 3, Devstral and Mistral Small 3.2 the name before the arguments (`[TOOL_CALLS]f[ARGS]{...}`),
 * Gemma 4 its own notation (found by its opening text, as llama-server finds it), MiniCPM5 XML calls
 * (`<function name="f"><param name="k">v</param></function>`, found by its tags and tool guidelines),
 * gpt-oss harmony messages (found by `<|channel|>`); a template that writes no
 * call (Phi-3.5) or joins contents has none, and neither has one that does not parse.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  GEMMA_TOOL_FORMAT,
  HARMONY_TOOL_FORMAT,
  HERMES_TOOL_FORMAT,
  PYTHON_TOOL_FORMAT,
  TAGGED_TOOL_FORMAT,
  XML_TOOL_FORMAT,
} from '../../../../../src/core/domain/tool-call-format';
import { toolCallFormat } from '../../../../../worker/engine/chat/tool-call-format';

const template = (name: string) => readFileSync(`test/fixtures/chat-templates/${name}.jinja`, 'utf8');
const LLAMA = { open: '', close: '', args: 'parameters', array: false };
const MISTRAL = { open: '[TOOL_CALLS]', close: '', args: '[ARGS]', array: false, syntax: 'named' };

describe('toolCallFormat', () => {
  it.each([
    ['Qwen-Qwen2.5-7B-Instruct', HERMES_TOOL_FORMAT],
    ['Qwen-Qwen3-0.6B', HERMES_TOOL_FORMAT],
    ['NousResearch-Hermes-3-Llama-3.1-8B-tool_use', HERMES_TOOL_FORMAT],
    ['meta-llama-Llama-3.1-8B-Instruct', LLAMA],
    ['meta-llama-Llama-3.2-3B-Instruct', LLAMA],
    // Its template refuses a call id that is not 9 letters or digits.
    [
      'mistralai-Mistral-Nemo-Instruct-2407',
      { open: '[TOOL_CALLS]', close: '', args: 'arguments', array: true, ids: 9 },
    ],
    ['Qwen3.5-4B', TAGGED_TOOL_FORMAT],
    ['LFM2-8B-A1B', PYTHON_TOOL_FORMAT],
    ['google-gemma-4-31B-it', GEMMA_TOOL_FORMAT],
    ['openbmb-MiniCPM5-1B', XML_TOOL_FORMAT],
    // Harmony's channel token, as llama-server finds gpt-oss's template.
    ['openai-gpt-oss-120b', HARMONY_TOOL_FORMAT],
    ['mistralai-Ministral-3-14B-Reasoning-2512', MISTRAL],
    ['unsloth-mistral-Devstral-Small-2507', MISTRAL],
    // `[CALL_ID]` and its id between the name and `[ARGS]`; its template takes ids of 9 characters.
    ['Mistral-Small-3.2-24B-Instruct-2506', { ...MISTRAL, idTag: '[CALL_ID]', ids: 9 }],
    // A name before its arguments, but the calls share one section (DeepSeek) or are numbered (Kimi): not read yet.
    ['deepseek-ai-DeepSeek-V3.1', null],
    ['moonshotai-Kimi-K2', null],
    ['LFM2.5-8B-A1B', PYTHON_TOOL_FORMAT],
    ['microsoft-Phi-3.5-mini-instruct', null],
  ])('%s', (name, format) => {
    expect(toolCallFormat(template(name), { bos_token: '<s>', eos_token: '</s>' })).toStrictEqual(format);
  });

  it('finds none in a template that writes no call, or does not parse', () => {
    expect(toolCallFormat('{% for m in messages %}{{ m.content }}{% endfor %}')).toBeNull();
    expect(toolCallFormat('{% for m in messages %}')).toBeNull();
  });

  it("leaves the end of the model's turn out of the closing text, and backs the cut up to a tag's start", () => {
    // The answer's `<think>` shares the call's `<`, and the call's turn ends with the eos text.
    const source = [
      '{% for m in messages %}{% if m.tool_calls %}<TOOLCALL>{{ m.tool_calls | map(attribute="function") | list | tojson }}</TOOLCALL><end>',
      '{% elif m.role == "assistant" %}<think>{{ m.content }}</think>{% else %}{{ m.content }}{% endif %}{% endfor %}',
    ].join('');
    expect(toolCallFormat(source, { eos_token: '<end>' })).toStrictEqual({
      open: '<TOOLCALL>',
      close: '</TOOLCALL>',
      args: 'arguments',
      array: true,
    });
  });
});
