/** Whether a chat continues its final assistant message, as llama-server 0.7.0 decides it (each 400 measured there). */
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../../src/core/domain/chat-prompt';
import { continuedText, readContinuation } from '../../../../../worker/sw/conversation/continuation';

const user: ChatMessage = { role: 'user', content: 'hi' };
const prefill: ChatMessage = { role: 'assistant', content: 'abc' };

describe('readContinuation', () => {
  it('continues a final assistant message: its content, or its reasoning where it has no content', () => {
    expect(readContinuation([user, prefill], {})).toBe('content');
    expect(readContinuation([user, { role: 'assistant', content: '', reasoning_content: 'hmm' }], {})).toBe(
      'reasoning',
    );
    expect(readContinuation([user, { role: 'assistant', content: 'a', reasoning_content: 'hmm' }], {})).toBe('content');
    // add_generation_prompt does not stop it, and continue_final_message false is none (llama-server's reading).
    expect(readContinuation([user, prefill], { add_generation_prompt: true, continue_final_message: false })).toBe(
      'content',
    );
    expect(readContinuation([user], {})).toBeNull();
  });

  it('takes continue_final_message "content" or "reasoning_content" with add_generation_prompt false', () => {
    const reasoning = { role: 'assistant' as const, content: 'a', reasoning_content: 'hmm' };
    const off = { add_generation_prompt: false };
    expect(readContinuation([user, reasoning], { ...off, continue_final_message: 'reasoning_content' })).toBe(
      'reasoning',
    );
    expect(readContinuation([user, reasoning], { ...off, continue_final_message: 'content' })).toBe('content');
    expect(readContinuation([user, reasoning], { ...off, continue_final_message: true })).toBe('content');
  });

  it("gives llama-server's 400s: two assistant messages at the end, the flag with add_generation_prompt, tool calls", () => {
    expect(() => readContinuation([user, prefill, prefill], {})).toThrow(
      expect.objectContaining({
        status: 400,
        param: 'messages',
        message: 'Cannot have 2 or more assistant messages at the end of the list.',
      }),
    );
    expect(() => readContinuation([user, prefill], { continue_final_message: true })).toThrow(
      expect.objectContaining({
        status: 400,
        message: 'Cannot set both add_generation_prompt and continue_final_message to true.',
      }),
    );
    const call = { id: 'c', type: 'function' as const, function: { name: 'f', arguments: '{}' } };
    expect(() => readContinuation([user, { role: 'assistant', content: '', tool_calls: [call] }], {})).toThrow(
      expect.objectContaining({
        status: 400,
        message: 'Cannot continue an assistant message that contains tool calls.',
      }),
    );
  });

  it("gives the continued message's text", () => {
    const reasoning = { role: 'assistant' as const, content: '', reasoning_content: 'hmm' };
    expect(continuedText([user, prefill], 'content')).toBe('abc');
    expect(continuedText([user, reasoning], 'reasoning')).toBe('hmm');
    expect(continuedText([user, prefill], null)).toBe('');
  });
});
