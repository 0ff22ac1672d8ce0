/**
 * `POST <prefix>/audio/transcriptions` (issue 32), as llama-server answers it: the multipart form
 * becomes a chat request (transcription-request.ts: the ASR preset of the model's template, read
 * from the engine's `props` job, and the file as an audio item), which the engine runs as any
 * chat with media. The answer is the reply's text: `json` as llama-server's
 * `{ type: 'transcript.text.done', text, usage }` (OpenAI's `{ text, usage }` plus its `type`),
 * `text` as plain text, `verbose_json` as OpenAI's `{ task, language, duration, text, segments,
 * usage }` without timings (no segments: the model gives none). `stream=true` sends OpenAI's
 * `transcript.text.delta` events, then `transcript.text.done`. A model without audio is
 * llama-server's "The current model does not support audio input.", a 400 naming `file`.
 * The page's engine only: a route table's upstreams are not asked.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { checkCapabilities } from '#core/domain/capabilities';
import type { TokenCounts } from '#core/domain/generation';
import { OPENAI_DIALECT } from '../../dialect/openai-dialect';
import { routeToEngine } from '../../engine-for';
import { jsonResponse, openGeneration, sseResponse, type JsonFormatter } from '../../engine-response';
import { openJob } from '../../open-job';
import type { Route } from '../../route';
import { sseFrame } from '../../sse';
import { ChatCompletionBuilder } from '../chat/chat-completion-builder';
import { ChatStream } from '../chat/chat-stream';
import { chatFormatOptions } from '../../conversation/chat-format-options';
import { chatGenerationRequest } from '../../conversation/chat-generation-request';
import { newChatMedia } from '../../conversation/chat-media';
import { validateChat } from '../../conversation/validate-chat';
import type { ChatRequest } from '../../conversation/chat-types';
import { readTranscriptionRequest, type TranscriptionRequest } from './transcription-request';

const NO_AUDIO = 'The current model does not support audio input.';

/** The multipart form; anything else is a 400. */
async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new InvalidRequestError(
      "The request body must be multipart/form-data with the audio as 'file' (as OpenAI's SDK sends it).",
      null,
    );
  }
}

const usageOf = (counts: TokenCounts) => ({
  type: 'tokens',
  input_tokens: counts.prompt,
  output_tokens: counts.completion,
  total_tokens: counts.prompt + counts.completion,
  input_tokens_details: { cached_tokens: counts.cached },
});

/** The whole answer in the asked format's JSON shape, from the chat reply; `reply.text` holds its text once made. */
function transcriptionJson(chat: ChatRequest, asked: TranscriptionRequest, reply: { text: string }): JsonFormatter {
  const builder = new ChatCompletionBuilder(chatFormatOptions(chat));
  return {
    add: (event) => void builder.accept(event),
    body: (counts) => {
      builder.accept({ type: 'generation.done', counts });
      const text = builder.result().choices[0]?.message.content ?? '';
      reply.text = text;
      if (asked.responseFormat === 'verbose_json')
        return {
          task: 'transcribe',
          language: asked.language ?? 'unknown',
          duration: 0,
          text,
          segments: [],
          usage: usageOf(counts),
        };
      return { type: 'transcript.text.done', text, usage: usageOf(counts) };
    },
  };
}

export function transcriptionsRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'POST',
    dialect: OPENAI_DIALECT,
    path: `${prefix}/audio/transcriptions`,
    async handle(event) {
      const form = await readForm(event.request);
      const named = form.get('model');
      const model = typeof named === 'string' ? named : '';
      // The model's template decides the ASR preset (LFM2's differs): the engine says it.
      const engine = await routeToEngine(clients, event, {
        dialect: OPENAI_DIALECT,
        validate: async () => ({ model }),
        toRequest: (body) => body,
        check: (capabilities) => {
          if (!capabilities.modalities?.audio) throw new InvalidRequestError(NO_AUDIO, 'file');
        },
      });
      const props = await openJob.props(engine, { model: engine.body.model }, event.request.signal);
      props.channel.close();
      const media = newChatMedia();
      const asked = await readTranscriptionRequest(form, media.marker, props.first.chat_template);
      media.parts.push(...asked.media);
      const chat: ChatRequest = {
        ...validateChat({
          model,
          messages: asked.messages,
          stream: asked.stream,
          ...(asked.temperature === null ? {} : { temperature: asked.temperature }),
          ...(asked.maxTokens === null ? {} : { max_tokens: asked.maxTokens }),
        }),
        media,
      };
      const routed = await routeToEngine(clients, event, {
        dialect: OPENAI_DIALECT,
        validate: async () => chat,
        toRequest: chatGenerationRequest,
        check: checkCapabilities,
      });
      const generation = await openGeneration(routed, event.request.signal);
      if (asked.stream) {
        const stream = new ChatStream(chatFormatOptions(chat));
        let text = '';
        return sseResponse(
          generation,
          {
            frames: (item) =>
              stream.accept(item).flatMap((chunk) => {
                const delta =
                  typeof chunk === 'object' && 'choices' in chunk ? (chunk.choices[0]?.delta.content ?? '') : '';
                text += delta;
                return delta ? [sseFrame({ type: 'transcript.text.delta', delta })] : [];
              }),
            done: (counts) => [sseFrame({ type: 'transcript.text.done', text, usage: usageOf(counts) })],
          },
          OPENAI_DIALECT,
        );
      }
      const reply = { text: '' };
      const answer = await jsonResponse(generation, transcriptionJson(chat, asked, reply), OPENAI_DIALECT);
      if (asked.responseFormat !== 'text' || !answer.ok) return answer;
      // The JSON body is made as it is read: reading it to the end fills in `reply`.
      await answer.arrayBuffer();
      return new Response(reply.text, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
    },
  };
}
