import { afterEach, describe, expect, test } from 'vitest';
import type { ModelSpec } from '../../../../src/core/domain/model-spec';
import { LoraScalesChannel } from '../../../../src/page/lora-scales-channel';

const url = (name: string) => ({ kind: 'url' as const, url: `https://example.test/${name}.gguf` });
const spec = (adapters: string[]): ModelSpec => ({
  id: 'm',
  backend: 'llamacpp',
  source: url('m'),
  lora: adapters.map((id) => ({ id, source: url(id), scale: 1 })),
});
const scales = (model: ModelSpec) => model.lora?.map((adapter) => adapter.scale);
/** Lets the channel's messages arrive (Node delivers them on later turns of the event loop). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

const open: LoraScalesChannel[] = [];
function tab(leads: boolean): LoraScalesChannel {
  const channel = new LoraScalesChannel(() => leads);
  open.push(channel);
  return channel;
}
afterEach(() => open.splice(0).forEach((channel) => channel.close()));

describe('LoraScalesChannel', () => {
  test('the leader tells the other tabs; they load the model at the scales it set', async () => {
    const [leader, follower] = [tab(true), tab(false)];
    expect(scales(follower.apply(spec(['a', 'b'])))).toEqual([1, 1]);
    leader.set(spec(['a', 'b']), [0, 0.5]);
    await settle();
    expect(scales(follower.apply(spec(['a', 'b'])))).toEqual([0, 0.5]);
    // The leader's own restart after a crash too.
    expect(scales(leader.apply(spec(['a', 'b'])))).toEqual([0, 0.5]);
  });

  test('a tab that begins to follow after the POST asks, and only the leader answers', async () => {
    const leader = tab(true);
    leader.set(spec(['a', 'b']), [0, 2]);
    const [late, other] = [tab(false), tab(false)];
    other.ask('m');
    await settle();
    // The other follower asked: the leader's answer reached every tab, the late one too.
    expect(scales(late.apply(spec(['a', 'b'])))).toEqual([0, 2]);
    // With the leader gone, followers that know the scales do not answer (only the engine's tab knows them for sure).
    const unanswered = tab(false);
    leader.close();
    unanswered.ask('m');
    await settle();
    expect(scales(unanswered.apply(spec(['a', 'b'])))).toEqual([1, 1]);
  });

  test('scales set for other adapters, or another model, leave a spec as it is', async () => {
    const [leader, follower] = [tab(true), tab(false)];
    leader.set(spec(['a', 'b']), [0, 0.5]);
    await settle();
    expect(scales(follower.apply(spec(['b', 'a'])))).toEqual([1, 1]);
    expect(scales(follower.apply(spec(['a'])))).toEqual([1]);
    expect(scales(follower.apply({ ...spec(['a', 'b']), id: 'n' }))).toEqual([1, 1]);
    const bare: ModelSpec = { id: 'm', backend: 'llamacpp', source: url('m') };
    expect(follower.apply(bare)).toBe(bare);
  });
});
