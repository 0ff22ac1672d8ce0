/**
 * Stop strings on webllm (applied by the shared layer, WebLLM never sees them): only a tail that
 * could begin a stop waits, and each token's text goes out whole with its logprobs entry. Seen
 * on a real WebLLM runtime: with `stop: [" setColor"]` the token " barcelona" streamed as
 * " b" / "ar" / "c" / "elona", one forward pass apart, its entry riding on " b".
 */
import { describe, expect, it } from 'vitest';
import type { GenerationRequest } from '../../../../../../src/core/domain/generation';
import { validateCompletion } from '../../../../../../src/core/openai/validate-completion';
import type { EngineToSw, MessageOf } from '../../../../../../src/core/protocol/protocol';
import { WebLLMModel } from '../../../../../../worker/engine/backends/webllm/model';
import { runGeneration } from '../../../../../../worker/engine/run-generation';
import { chatGenerationRequest } from '../../../../../../worker/sw/conversation/chat-generation-request';
import { validateChat } from '../../../../../../worker/sw/conversation/validate-chat';
import { FakeEngine, lp, type FakeScript } from './webllm-fake-engine';

/** One WebLLM step per token. */
const script =
  (...tokens: string[]): FakeScript =>
  () => ({ steps: tokens.map((text) => ({ text, logprobs: [lp(text, -0.5)] })), finish: 'length' });

type Event = MessageOf<EngineToSw>;

/** The pieces posted to the SW: text, and the tokens their entries name. */
async function pieces(request: GenerationRequest, engine: FakeEngine) {
  const { port1, port2 } = new MessageChannel();
  const posted: Event[] = [];
  port1.onmessage = (event: MessageEvent<Event>) => posted.push(event.data);
  await runGeneration(new WebLLMModel(engine, 'fake', 4096, 258), request, port2, new AbortController().signal);
  await new Promise((resolve) => setTimeout(resolve, 20));
  port1.close();
  return posted.flatMap((event) =>
    event.type === 'generation.piece' ? [[event.text, event.tokens?.map((token) => token.text) ?? null]] : [],
  );
}

const chat = (body: Record<string, unknown>) =>
  chatGenerationRequest(validateChat({ model: 'm', messages: [{ role: 'user', content: 'x' }], ...body }));

describe('webllm: stop strings hold back only a possible beginning of a stop', () => {
  it('chat with logprobs: " barcelona" goes out whole with its entry', async () => {
    const engine = new FakeEngine(script('Visit', ' barcelona', ' now'));
    expect(await pieces(chat({ stop: [' setColor'], logprobs: true }), engine)).toEqual([
      ['Visit', ['Visit']],
      [' barcelona', [' barcelona']],
      [' now', [' now']],
    ]);
    expect(engine.chatRequests[0]?.stop).toBeUndefined();
  });

  it('a token ending in a possible stop beginning waits whole, then goes out token by token', async () => {
    const engine = new FakeEngine(script('a', ' se', 't', 'up'));
    expect(await pieces(chat({ stop: [' setColor'], logprobs: true }), engine)).toEqual([
      ['a', ['a']],
      [' se', [' se']],
      ['t', ['t']],
      ['up', ['up']],
    ]);
  });

  it("completions without logprobs: the AI SDK's stop ['\\nuser:'] does not delay plain text", async () => {
    const engine = new FakeEngine(script('d', 'e', 'f', 'g', 'h'));
    const request = validateCompletion({ model: 'm', prompt: 'abc', stop: ['\nuser:'], stream: true });
    expect(await pieces(request, engine)).toEqual(['d', 'e', 'f', 'g', 'h'].map((text) => [text, null]));
    expect(engine.requests[0]?.stop).toBeUndefined();
  });
});
