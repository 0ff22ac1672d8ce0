/**
 * The engine worker's job inbox: it announces the engine's models at once and on each change,
 * answers `engine.query` as the page would (with the page's key and standby list), runs each
 * `job` with the port that came with it, and, once closed, answers as a page whose engine has
 * stopped (no models, `engine_gone`).
 */
import { describe, expect, it } from 'vitest';
import type { ModelCard } from '../../../../src/core/domain/model-card';
import { validateCompletion } from '../../../../src/core/openai/validate-completion';
import { message, type Job, type MessageOf, type Reply, type SwToPage } from '../../../../src/core/protocol/protocol';
import { serveInbox, type InboxEngine } from '../../../../worker/engine/serve-inbox';

const card = (id: string, status: ModelCard['status'] = 'ready'): ModelCard => ({
  id,
  object: 'model',
  created: 0,
  owned_by: 'inpage-llm',
  backend: 'llamacpp',
  status,
});

function fakeEngine() {
  const ran: Array<{ job: Job; port: MessagePort }> = [];
  const engine: InboxEngine & { cards: ModelCard[] } = {
    cards: [card('m')],
    run: (job, port) => ran.push({ job, port }),
    models: () => engine.cards,
    catalogue: () => Promise.resolve([card('other', 'available')]),
    slotStates: () => ({ m: { tasks: [null], decodes: 2, decodedSlots: 3 } }),
  };
  return { engine, ran };
}

/** Collects what arrives on `port`. */
function collect(port: MessagePort): Array<MessageOf<Reply>> {
  const seen: Array<MessageOf<Reply>> = [];
  port.onmessage = (event: MessageEvent<MessageOf<Reply>>) => seen.push(event.data);
  return seen;
}

/** Posts `type` on the SW's end with a fresh reply port; resolves with the first reply. */
function ask<K extends keyof SwToPage & string>(sw: MessagePort, type: K, payload: SwToPage[K]): Promise<unknown> {
  const { port1, port2 } = new MessageChannel();
  const reply = new Promise<unknown>((resolve) => (port1.onmessage = (event) => resolve(event.data)));
  sw.postMessage(message<SwToPage, K>(type, payload), [port2]);
  return reply.finally(() => port1.close());
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const page = { apiKey: 'k', standby: ['m'] };

describe('serveInbox', () => {
  it('announces the models at once and on each change, with the page key and standby list', async () => {
    const { engine } = fakeEngine();
    const { port1: sw, port2: worker } = new MessageChannel();
    const seen = collect(sw);
    const inbox = serveInbox(worker, engine, page);
    engine.cards = [card('m', 'failed')];
    inbox.announce();
    await settle();
    expect(seen.map((info) => info.type === 'engine.info' && info.models.map((m) => m.status))).toEqual([
      ['ready'],
      ['failed'],
    ]);
    expect(seen[0]).toMatchObject({ type: 'engine.info', apiKey: 'k', standby: ['m'] });
    sw.close();
  });

  it('answers engine.query (with the catalogue when asked) and runs jobs with their port', async () => {
    const { engine, ran } = fakeEngine();
    const { port1: sw, port2: worker } = new MessageChannel();
    serveInbox(worker, engine, page);
    const plain = await ask(sw, 'engine.query', { catalogue: false });
    expect(plain).toMatchObject({ type: 'engine.info', models: [{ id: 'm' }], apiKey: 'k', standby: ['m'] });
    expect(plain).not.toHaveProperty('slots');
    const all = await ask(sw, 'engine.query', { catalogue: true });
    expect(all).toMatchObject({ models: [{ id: 'm' }, { id: 'other', status: 'available' }] });
    // The models' slots, only where asked (`GET /slots`, `/metrics`).
    expect(await ask(sw, 'engine.query', { catalogue: false, slots: true })).toMatchObject({
      slots: { m: { tasks: [null], decodes: 2 } },
    });
    const job: Job = { kind: 'embedding', request: { model: 'm', inputs: ['ab'] } };
    const { port2 } = new MessageChannel();
    sw.postMessage(message<SwToPage, 'job'>('job', { job }), [port2]);
    await settle();
    expect(ran.map((entry) => entry.job)).toEqual([job]);
    expect(ran[0]?.port).toBeDefined();
    sw.close();
  });

  it('once closed: announces no models, answers queries with none and jobs with engine_gone', async () => {
    const { engine, ran } = fakeEngine();
    const { port1: sw, port2: worker } = new MessageChannel();
    const seen = collect(sw);
    serveInbox(worker, engine, page).close();
    await settle();
    expect(seen.at(-1)).toMatchObject({ type: 'engine.info', models: [] });
    expect(await ask(sw, 'engine.query', { catalogue: true })).toMatchObject({ models: [] });
    const job: Job = { kind: 'generation', request: validateCompletion({ model: 'm', prompt: 'a' }) };
    const error = await ask(sw, 'job', { job });
    expect(error).toMatchObject({
      type: 'generation.error',
      error: { status: 503, body: { error: { code: 'engine_gone' } } },
    });
    expect(ran).toHaveLength(0);
    sw.close();
  });
});
