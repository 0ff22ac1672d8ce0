import { describe, expect, it } from 'vitest';
import { abbreviateMedia, shorten } from '../../../demo/abbreviate-media';
import type { ChatAttachment } from '../../../demo/chat-attachment';
import { toChatBody, toMessagesBody, toResponsesBody, type Conversation } from '../../../demo/chat-body';
import { DEFAULT_PARAMS } from '../../../demo/request-body';
import { fetchCode, sdkCode } from '../../../demo/request-code';

const long = 'A'.repeat(40) + 'B'.repeat(200);
const shown = `${'A'.repeat(32)}…`;
const conversation: Conversation = {
  system: '',
  turns: [
    {
      role: 'user',
      content: 'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz',
      attachments: [
        { kind: 'image', name: 'a.png', mediaType: 'image/png', data: long },
        { kind: 'audio', name: 'b.wav', mediaType: 'audio/wav', data: long, format: 'wav' },
      ] satisfies ChatAttachment[],
    },
  ],
};

describe('the code panel shortens media base64', () => {
  it("shorten: a data: URL's payload or bare base64 past 32 characters; other strings as they are", () => {
    expect(shorten(`data:image/png;base64,${long}`)).toBe(`data:image/png;base64,${shown}`);
    expect(shorten(long)).toBe(shown);
    expect(shorten('A'.repeat(33))).toBe('A'.repeat(33));
    expect(shorten('https://example.com/a-very-long-path/to/an/image/that/goes/on/and/on.png')).toMatch(/on\.png$/);
  });

  it('on every endpoint, only the media: the text, even a long one, stays whole; the body is not changed', () => {
    const chat = toChatBody('m', DEFAULT_PARAMS, conversation);
    const before = JSON.stringify(chat);
    const shownChat = JSON.stringify(abbreviateMedia(chat));
    expect(JSON.stringify(chat)).toBe(before);
    expect(shownChat).not.toContain('B');
    expect(shownChat).toContain(`"url":"data:image/png;base64,${shown}"`);
    expect(shownChat).toContain(`"data":"${shown}","format":"wav"`);
    expect(shownChat).toContain(conversation.turns[0]?.content);
    expect(JSON.stringify(abbreviateMedia(toResponsesBody('m', DEFAULT_PARAMS, conversation)))).toContain(
      `"image_url":"data:image/png;base64,${shown}"`,
    );
    expect(JSON.stringify(abbreviateMedia(toMessagesBody('m', DEFAULT_PARAMS, conversation)))).toContain(
      `"media_type":"image/png","data":"${shown}"`,
    );
  });

  it('the code stays valid JavaScript with the shortened body', () => {
    const body = abbreviateMedia(toChatBody('m', DEFAULT_PARAMS, conversation));
    for (const code of [sdkCode(body, null, 'chat'), fetchCode(body, null, 'chat')]) {
      const source = code.replace(/^import .*$/m, '');
      expect(() => new Function(`return async () => {${source}}`)).not.toThrow();
      expect(code).toContain('image_url');
    }
  });
});
