import { describe, expect, it } from 'vitest';
import { buildBenchModel } from '../../../fixtures/bench-model';
import { readGgufMetadata } from '../../../../src/gguf/read-gguf-metadata';
import { vocabularyFromMetadata } from '../../../../src/gguf/vocabulary';
import { CHATML_TEMPLATE, chatTemplateFromMetadata } from '../../../../src/gguf/chat-template';
import { buildInpageTestModel } from '../../../../src/builtin-model/inpage-test-model';
import { inpageTestSpec } from '../../../../src/builtin-model/inpage-test-spec';
import { renderChatPrompt } from '../../../../worker/engine/chat/render-prompt';
import type { ChatPrompt } from '../../../../src/core/domain/chat-prompt';

const templateOf = async (bytes: Uint8Array<ArrayBuffer>) => {
  const metadata = await readGgufMetadata(new Blob([bytes]));
  return chatTemplateFromMetadata(metadata, vocabularyFromMetadata(metadata));
};

const user = (content: string): ChatPrompt => ({
  messages: [{ role: 'user', content }],
  tools: [],
  chat_template_kwargs: {},
  reasoning_effort: null,
});

describe('chatTemplateFromMetadata', () => {
  it("takes the GGUF's own template", async () => {
    const template = await templateOf(buildInpageTestModel());
    expect(template).toStrictEqual({
      source: inpageTestSpec.chatTemplate,
      bos_token: expect.any(String),
      eos_token: expect.any(String),
      origin: 'gguf',
    });
  });

  it("falls back to llama.cpp's chatml for a GGUF without one, as llama-server does", async () => {
    const template = await templateOf(buildBenchModel({ nEmbd: 8, nLayer: 1, nFf: 8, nHead: 2 }, 'f32'));
    expect(template.origin).toBe('chatml');
    expect(template.source).toBe(CHATML_TEMPLATE);
    expect([template.bos_token, template.eos_token]).toStrictEqual(['<s>', '</s>']);
    // llama-server 0.7.0 counts 53 prompt tokens for [user 'abc'] on a byte vocabulary: these 53 bytes.
    const { text } = renderChatPrompt(template, user('abc'));
    expect(text).toBe('<|im_start|>user\nabc<|im_end|>\n<|im_start|>assistant\n');
    expect(new TextEncoder().encode(text)).toHaveLength(53);
  });
});
