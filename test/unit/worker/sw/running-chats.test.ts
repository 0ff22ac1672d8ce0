/** The running chat completions, for llama-server's POST /v1/chat/completions/control. */
import { describe, expect, it } from 'vitest';
import { endReasoning, trackChat, type ChatJob } from '../../../../worker/sw/running-chats';

class Job implements ChatJob {
  running = true;
  readonly asked: string[] = [];
  control(action: 'reasoning_end'): void {
    this.asked.push(action);
  }
}

describe('endReasoning', () => {
  it('answers as llama-server: success for a running completion with reasoning_control, else why not', () => {
    const controlled = new Job();
    const plain = new Job();
    trackChat('chatcmpl-a', controlled, true);
    trackChat('chatcmpl-b', plain, false);
    expect(endReasoning('chatcmpl-a')).toEqual({ success: true });
    expect(controlled.asked).toEqual(['reasoning_end']);
    expect(endReasoning('chatcmpl-b')).toEqual({
      success: false,
      message: 'reasoning control not enabled for this completion',
    });
    expect(plain.asked).toEqual([]);
    expect(endReasoning('chatcmpl-x')).toEqual({ success: false, message: 'no active completion for this id' });
    controlled.running = false;
    expect(endReasoning('chatcmpl-a')).toEqual({ success: false, message: 'no active completion for this id' });
  });
});
