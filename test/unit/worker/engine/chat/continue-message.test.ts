/**
 * A final assistant message continued (a prefill): the prompts llama-server 0.7.0 renders for it
 * (`/apply-template`, measured on inpage-test with Qwen3's template and with Llama 3.2's).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatPrompt } from '../../../../../src/core/domain/chat-prompt';
import { reasoningMarks } from '../../../../../worker/engine/chat/continue-message';
import { renderChatPrompt } from '../../../../../worker/engine/chat/render-prompt';

const template = (name: string) => ({
  source: readFileSync(`test/fixtures/chat-templates/${name}.jinja`, 'utf8'),
  bos_token: '<s>',
  eos_token: '</s>',
  origin: 'gguf' as const,
});
const qwen3 = template('Qwen-Qwen3-0.6B');
const prompt = (last: ChatPrompt['messages'][number], extra: Partial<ChatPrompt> = {}): ChatPrompt => ({
  messages: [{ role: 'user', content: 'hi' }, last],
  tools: [],
  chat_template_kwargs: {},
  reasoning_effort: null,
  ...extra,
});

describe('a continued assistant message', () => {
  it("finds the template's reasoning marks with their whitespace (Qwen3: <think>\\n and \\n</think>\\n\\n)", () => {
    expect(reasoningMarks(qwen3)).toStrictEqual({ start: '<think>\n', end: '\n</think>\n\n' });
    expect(reasoningMarks(template('meta-llama-Llama-3.2-3B-Instruct'))).toBeNull();
  });

  it('ends the prompt with its content, after the reasoning marks, as llama-server renders it', () => {
    const content = renderChatPrompt(
      qwen3,
      prompt({ role: 'assistant', content: 'abc' }, { continue_final_message: 'content' }),
    );
    expect(content).toStrictEqual({
      text: '<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\nabc',
      opensReasoning: false,
    });
    const off = prompt(
      { role: 'assistant', content: 'abc' },
      {
        continue_final_message: 'content',
        chat_template_kwargs: { enable_thinking: false },
      },
    );
    expect(renderChatPrompt(qwen3, off).text).toBe(content.text);
  });

  it('ends the prompt inside its reasoning where that is continued: the output starts as reasoning', () => {
    const reasoning = prompt(
      { role: 'assistant', content: '', reasoning_content: 'abc' },
      { continue_final_message: 'reasoning' },
    );
    expect(renderChatPrompt(qwen3, reasoning)).toStrictEqual({
      text: '<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n<think>\nabc',
      opensReasoning: true,
    });
  });

  it("continues gpt-oss's analysis message, or its final message after it, as llama-server's gpt-oss parser writes them", () => {
    const gptOss = template('openai-gpt-oss-120b');
    const last = { role: 'assistant' as const, content: 'abc', reasoning_content: 'r' };
    const content = renderChatPrompt(gptOss, prompt(last, { continue_final_message: 'content' }));
    expect(
      content.text.endsWith(
        '<|start|>user<|message|>hi<|end|><|start|>assistant<|channel|>analysis<|message|>r<|end|><|start|>assistant<|channel|>final<|message|>abc',
      ),
    ).toBe(true);
    expect(content.opensReasoning).toBe(false);
    const reasoning = renderChatPrompt(gptOss, prompt(last, { continue_final_message: 'reasoning' }));
    expect(reasoning.text.endsWith('<|start|>assistant<|channel|>analysis<|message|>r')).toBe(true);
    expect(reasoning.opensReasoning).toBe(true);
  });
});
