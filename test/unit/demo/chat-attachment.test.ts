import { describe, expect, it } from 'vitest';
import { audioFormat, chatParts, type ChatAttachment } from '../../../demo/chat-attachment';
import {
  pendingConversation,
  toChatBody,
  toEmbeddingsBody,
  toMessagesBody,
  toResponsesBody,
  type Conversation,
} from '../../../demo/chat-body';
import { DEFAULT_PARAMS } from '../../../demo/request-body';
import { readAttachment } from '../../../demo/read-attachment';

const image: ChatAttachment = { kind: 'image', name: 'dot.png', mediaType: 'image/png', data: 'iVBORw0KGgo=' };
const sound: ChatAttachment = {
  kind: 'audio',
  name: 'beep.wav',
  mediaType: 'audio/wav',
  data: 'UklGRg==',
  format: 'wav',
};
const withMedia: Conversation = {
  system: '',
  turns: [
    { role: 'user', content: 'abc' },
    { role: 'assistant', content: 'defgh' },
    { role: 'user', content: 'What is this?', attachments: [image, sound] },
  ],
};

describe('a user turn with attachments on each endpoint', () => {
  it('chat: a content array, the text then one part per attachment; other turns stay strings', () => {
    expect(toChatBody('m', DEFAULT_PARAMS, withMedia).messages).toEqual([
      { role: 'user', content: 'abc' },
      { role: 'assistant', content: 'defgh' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        ],
      },
    ]);
  });

  it('chat: blank text is left out; no attachments is a plain string', () => {
    expect(chatParts('  ', [image])).toEqual([
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ]);
    const plain: Conversation = { system: '', turns: [{ role: 'user', content: 'abc', attachments: [] }] };
    expect(toChatBody('m', DEFAULT_PARAMS, plain).messages).toEqual([{ role: 'user', content: 'abc' }]);
  });

  it('responses: input_text, input_image and input_audio parts, never a string input', () => {
    const lone: Conversation = { system: '', turns: [{ role: 'user', content: 'x', attachments: [image, sound] }] };
    expect(toResponsesBody('m', DEFAULT_PARAMS, lone).input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'x' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        ],
      },
    ]);
  });

  it('messages: text and base64 image blocks (no audio block)', () => {
    expect(toMessagesBody('m', DEFAULT_PARAMS, withMedia).messages).toEqual([
      { role: 'user', content: 'abc' },
      { role: 'assistant', content: 'defgh' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        ],
      },
    ]);
  });

  it('embeddings: the text only', () => {
    expect(toEmbeddingsBody('m', withMedia, '')).toEqual({ model: 'm', input: 'What is this?' });
  });

  it('the pending request carries the attachments, with or without text', () => {
    const turns = pendingConversation({ system: '', turns: [] }, '', [image]).turns;
    expect(turns).toEqual([{ role: 'user', content: '', attachments: [image] }]);
    expect(pendingConversation({ system: '', turns: [] }, '').turns).toEqual([]);
  });
});

describe('reading a file into an attachment', () => {
  const both = { vision: true, audio: true };

  it("audioFormat: from the type, else the name's extension", () => {
    expect(audioFormat('audio/wav', 'a')).toBe('wav');
    expect(audioFormat('audio/x-wav', 'a')).toBe('wav');
    expect(audioFormat('audio/mpeg', 'a')).toBe('mp3');
    expect(audioFormat('', 'song.MP3')).toBe('mp3');
    expect(audioFormat('audio/ogg', 'a.ogg')).toBeNull();
  });

  it('an image and a sound as base64; a WAV without a type gets one', async () => {
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'a.png', { type: 'image/png' });
    expect(await readAttachment(png, both)).toEqual({
      attachment: { kind: 'image', name: 'a.png', mediaType: 'image/png', data: 'iVBORw==' },
    });
    const wav = new File([new Uint8Array(0x9000).fill(7)], 'b.wav');
    const result = await readAttachment(wav, both);
    expect(result).toMatchObject({ attachment: { kind: 'audio', mediaType: 'audio/wav', format: 'wav' } });
    if (!('attachment' in result)) throw new Error('refused');
    expect(Buffer.from(result.attachment.data, 'base64')).toEqual(Buffer.alloc(0x9000, 7));
  });

  it('refuses what the model or the routes do not take, saying why', async () => {
    const png = new File([new Uint8Array([1])], 'a.png', { type: 'image/png' });
    expect(await readAttachment(png, { vision: false, audio: true })).toEqual({
      refused: 'a.png: this model takes no images.',
    });
    const wav = new File([new Uint8Array([1])], 'b.wav', { type: 'audio/wav' });
    expect(await readAttachment(wav, { vision: true, audio: false })).toEqual({
      refused: 'b.wav: this model takes no audio.',
    });
    const ogg = new File([new Uint8Array([1])], 'c.ogg', { type: 'audio/ogg' });
    expect(await readAttachment(ogg, both)).toEqual({ refused: 'c.ogg: not an image, a WAV or an MP3 file.' });
  });
});
