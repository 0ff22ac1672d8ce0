import { afterEach, describe, expect, test } from 'vitest';
import type { ModelSpec } from '../../../../src/core/domain/model-spec';
import { EngineStateChannel } from '../../../../src/page/engine-state-channel';

const url = (name: string) => ({ kind: 'url' as const, url: `https://example.test/${name}.gguf` });
const spec = (adapters: string[], id = 'm'): ModelSpec => ({
  id,
  backend: 'llamacpp',
  source: url(id),
  lora: adapters.map((adapter) => ({ id: adapter, source: url(adapter), scale: 1 })),
});
const scales = (model: ModelSpec | undefined) => model?.lora?.map((adapter) => adapter.scale);
/** Lets the channel's messages arrive (Node delivers them on later turns of the event loop). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

const open: EngineStateChannel[] = [];
function tab(leads: boolean, election = 'm'): EngineStateChannel {
  const channel = new EngineStateChannel(election, () => leads);
  open.push(channel);
  return channel;
}
afterEach(() => open.splice(0).forEach((channel) => channel.close()));

describe('EngineStateChannel', () => {
  test('the leader tells the other tabs its scales; they load the model at them', async () => {
    const [leader, follower] = [tab(true), tab(false)];
    expect(scales(follower.apply(spec(['a', 'b'])))).toEqual([1, 1]);
    leader.setScales(spec(['a', 'b']), [0, 0.5]);
    await settle();
    expect(scales(follower.apply(spec(['a', 'b'])))).toEqual([0, 0.5]);
    // The leader's own restart after a crash too.
    expect(scales(leader.apply(spec(['a', 'b'])))).toEqual([0, 0.5]);
  });

  test('the leader tells the tabs of its election the models it serves; they take the others over, at their scales', async () => {
    const [leader, follower, elsewhere] = [tab(true), tab(false), tab(false, 'n')];
    leader.serve([spec([]), spec(['x'], 'extra')]);
    leader.setScales(spec(['x'], 'extra'), [0.25]);
    await settle();
    const others = follower.others('m');
    expect(others.map((model) => model.id)).toEqual(['extra']);
    expect(scales(others[0])).toEqual([0.25]);
    expect(elsewhere.others('n')).toEqual([]);
  });

  test('a tab that begins to follow after the fact asks, and only the leader of its election answers', async () => {
    const leader = tab(true);
    leader.serve([spec([]), spec([], 'extra')]);
    leader.setScales(spec(['a', 'b']), [0, 2]);
    const [late, other] = [tab(false), tab(false)];
    tab(true, 'n').ask();
    await settle();
    expect(late.others('m')).toEqual([]);
    other.ask();
    await settle();
    // The other follower asked: the leader's answers reached every tab, the late one too.
    expect(scales(late.apply(spec(['a', 'b'])))).toEqual([0, 2]);
    expect(late.others('m').map((model) => model.id)).toEqual(['extra']);
    // With the leader gone, followers that know the state do not answer (only the engine's tab knows it for sure).
    const unanswered = tab(false);
    leader.close();
    unanswered.ask();
    await settle();
    expect(scales(unanswered.apply(spec(['a', 'b'])))).toEqual([1, 1]);
    expect(unanswered.others('m')).toEqual([]);
  });

  test('scales set for other adapters, or another model, leave a spec as it is', async () => {
    const [leader, follower] = [tab(true), tab(false)];
    leader.setScales(spec(['a', 'b']), [0, 0.5]);
    await settle();
    expect(scales(follower.apply(spec(['b', 'a'])))).toEqual([1, 1]);
    expect(scales(follower.apply(spec(['a'])))).toEqual([1]);
    expect(scales(follower.apply(spec(['a', 'b'], 'n')))).toEqual([1, 1]);
    const bare: ModelSpec = { id: 'm', backend: 'llamacpp', source: url('m') };
    expect(follower.apply(bare)).toBe(bare);
  });
});
