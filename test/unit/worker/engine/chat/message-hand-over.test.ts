/** Messages as llama-server 0.7.0 hands them to a template (measured on /apply-template: test/e2e/llama-server-differential.test.ts). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../../src/core/domain/chat-prompt';
import { handOver } from '../../../../../worker/engine/chat/message-hand-over';

const template = (name: string) => readFileSync(`test/fixtures/chat-templates/${name}.jinja`, 'utf8');
const request = (messages: ChatMessage[]) => ({
  messages,
  tools: [],
  chat_template_kwargs: {},
  reasoning_effort: null,
});
const BRIEF: ChatMessage = { role: 'developer', content: 'Be brief.' };
const USER: ChatMessage = { role: 'user', content: 'abc' };

describe('handOver', () => {
  it("makes a developer message a system one, but on gpt-oss's template, which has a developer role", () => {
    expect(handOver(request([BRIEF, USER]), template('Qwen-Qwen3-0.6B')).messages).toStrictEqual([
      { role: 'system', content: 'Be brief.' },
      USER,
    ]);
    const plain = request([BRIEF, USER]);
    expect(handOver(plain, template('openai-gpt-oss-120b'))).toBe(plain);
  });

  it('puts a first system message in front of the next where the template has no system role (Gemma 2)', () => {
    const gemma2 = template('google-gemma-2-2b-it');
    expect(handOver(request([BRIEF, USER]), gemma2).messages).toStrictEqual([
      { role: 'user', content: 'Be brief.\nabc' },
    ]);
    expect(handOver(request([BRIEF]), gemma2).messages).toStrictEqual([]);
    const qwen = request([{ role: 'system', content: 'Be brief.' }, USER]);
    expect(handOver(qwen, template('Qwen-Qwen3-0.6B'))).toBe(qwen);
  });
});
