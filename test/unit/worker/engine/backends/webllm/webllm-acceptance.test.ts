/**
 * On webllm the engine's first event waits for WebLLM to take the prompt: WebLLM tokenizes a
 * conversation only in its prefill, inside the stream, so an over-context prompt fails there.
 * The SW answers 200 on the first event that is not an error, so nothing may come before it.
 */
import { describe, expect, it } from 'vitest';
import type { GenerationRequest } from '../../../../../../src/core/domain/generation';
import { validateCompletion } from '../../../../../../src/core/openai/validate-completion';
import type { EngineToSw, MessageOf } from '../../../../../../src/core/protocol/protocol';
import { WebLLMModel } from '../../../../../../worker/engine/backends/webllm/model';
import { runGeneration } from '../../../../../../worker/engine/run-generation';
import { chatGenerationRequest } from '../../../../../../worker/sw/conversation/chat-generation-request';
import { validateChat } from '../../../../../../worker/sw/conversation/validate-chat';
import { validateResponses } from '../../../../../../worker/sw/routes/responses/validate-responses';
import { FakeEngine, lp, type FakeScript } from './webllm-fake-engine';

const hello: FakeScript = () => ({
  steps: [
    { text: 'Hi', logprobs: [lp('Hi', -0.25)] },
    { text: '!', logprobs: [lp('!', -0.5)] },
  ],
  finish: 'stop',
});

type Event = MessageOf<EngineToSw>;

/** Runs `request` on a WebLLM model with a 2,048-token window; the events posted to the SW. */
async function events(request: GenerationRequest): Promise<Event[]> {
  const engine = new FakeEngine(hello, 2048);
  const { port1, port2 } = new MessageChannel();
  const posted: Event[] = [];
  port1.onmessage = (event: MessageEvent<Event>) => posted.push(event.data);
  await runGeneration(new WebLLMModel(engine, 'fake', 2048, 258), request, port2, new AbortController().signal);
  await new Promise((resolve) => setTimeout(resolve, 20));
  port1.close();
  expect(engine.returned).toBe(engine.chatRequests.length + engine.requests.length);
  return posted;
}

const long = 'hello '.repeat(3000);
const chat = (content: string, body: Record<string, unknown> = {}) =>
  chatGenerationRequest(validateChat({ model: 'm', messages: [{ role: 'user', content }], ...body }));
const responses = (input: string) => chatGenerationRequest(validateResponses({ model: 'm', input, stream: true }).chat);
const completion = (prompt: string) => validateCompletion({ model: 'm', prompt, stream: true });

describe('webllm: the first event waits for WebLLM to take the prompt', () => {
  it.each([
    ['chat, streamed', chat(long, { stream: true }), 'messages'],
    ['chat', chat(long), 'messages'],
    ['chat, n: 2', chat(long, { n: 2, stream: true }), 'messages'],
    ['responses, streamed', responses(long), 'messages'],
    ['completions, streamed', completion(long), 'prompt'],
  ])('%s over the context: the only event is the 400 context_length_exceeded', async (_name, request, param) => {
    const posted = await events(request);
    expect(posted.map((event) => event.type)).toEqual(['generation.error']);
    const [error] = posted;
    if (error?.type !== 'generation.error') return;
    expect(error.error.status).toBe(400);
    expect(error.error.body.error).toMatchObject({ code: 'context_length_exceeded', param });
  });

  it('a conversation that fits: generation.prompt first, then the pieces', async () => {
    const posted = await events(chat('hello', { stream: true }));
    expect(posted.map((event) => event.type)).toEqual([
      'generation.prompt',
      'generation.piece',
      'generation.piece',
      'generation.choice-end',
      'generation.done',
    ]);
  });
});
