/** Resumable streams' sessions (llama-server's server-stream.cpp): kept bytes, offsets, the cap, the registry. */
import { describe, expect, it } from 'vitest';
import { StreamSession } from '../../../../../worker/sw/streams/stream-session';
import { StreamSessions, TTL_MS } from '../../../../../worker/sw/streams/stream-sessions';
import { resumableBody } from '../../../../../worker/sw/streams/resumable-body';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (parts: Uint8Array[]) => new TextDecoder().decode(Buffer.concat(parts));

async function readAll(session: StreamSession, from: number): Promise<{ parts: Uint8Array[]; status: string }> {
  const parts: Uint8Array[] = [];
  const reading = session.readFrom(from);
  for (;;) {
    const next = await reading.next();
    if (next.done) return { parts, status: next.value };
    parts.push(next.value);
  }
}

describe('StreamSession', () => {
  it('answers from any offset, then live until it ends', async () => {
    const session = new StreamSession('c');
    session.append(bytes('data: 1\n\n'));
    const reading = readAll(session, 3);
    session.append(bytes('data: 2\n\n'));
    session.finalize();
    session.append(bytes('late'));
    expect(text((await reading).parts)).toBe('a: 1\n\ndata: 2\n\n');
    expect(session.totalBytes).toBe(18);
    expect(session.completedAt).toBeGreaterThan(0);
  });

  it('keeps the newest bytes past its cap; an offset before them is lost', async () => {
    const session = new StreamSession('c', 10);
    session.append(bytes('0123456'));
    session.append(bytes('789ab'));
    expect([session.dropped, session.totalBytes]).toEqual([2, 12]);
    session.append(bytes('cdefghijklmn'));
    expect([session.dropped, session.totalBytes]).toEqual([14, 24]);
    session.finalize();
    expect(await readAll(session, 3)).toEqual({ parts: [], status: 'offset_lost' });
    expect(text((await readAll(session, 20)).parts)).toBe('klmn');
  });

  it('tells its producer when it is cancelled', () => {
    const session = new StreamSession('c');
    const heard: string[] = [];
    session.whenCancelled(() => heard.push('stop'));
    session.cancel();
    session.cancel();
    expect(heard).toEqual(['stop']);
    expect(session.cancelled).toBe(true);
  });
});

describe('StreamSessions', () => {
  it('keeps one session a conversation (a new one cancels the old), finds ids and their per-model ones, and lets ended ones go', () => {
    const sessions = new StreamSessions();
    const first = sessions.createOrReplace('conv');
    const second = sessions.createOrReplace('conv');
    sessions.createOrReplace('conv::qwen');
    sessions.createOrReplace('other');
    expect([first.cancelled, first.isDone, second.cancelled]).toEqual([true, true, false]);
    expect(sessions.lookup(['conv']).map((info) => info.conversation_id)).toEqual(['conv', 'conv::qwen']);
    expect(sessions.lookup([])).toEqual([]);
    second.finalize();
    sessions.collect(second.completedAt * 1000 + TTL_MS - 1000);
    expect(sessions.get('conv')).toBe(second);
    sessions.collect(second.completedAt * 1000 + TTL_MS);
    expect(sessions.get('conv')).toBeUndefined();
    sessions.evictAndCancel('other');
    expect(sessions.get('other')).toBeUndefined();
    sessions.evictAndCancel('conv::qwen');
  });
});

describe('resumableBody', () => {
  it('goes on into the session after the client left, and a cancelled session stops the source', async () => {
    let sourceCancelled = '';
    const feed: { push: (chunk: string) => void } = { push: () => undefined };
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        feed.push = (chunk) => controller.enqueue(bytes(chunk));
      },
      cancel(reason) {
        sourceCancelled = String(reason);
      },
    });
    const session = new StreamSession('c');
    let held = 0;
    const body = resumableBody(source, session, () => {
      held += 1;
      return () => (held -= 1);
    });
    const client = body.getReader();
    feed.push('a');
    expect(text([(await client.read()).value ?? new Uint8Array()])).toBe('a');
    await client.cancel();
    feed.push('b');
    feed.push('c');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect([session.totalBytes, session.isDone, held]).toEqual([3, false, 1]);
    session.cancel();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sourceCancelled).toBe('stream stopped');
    expect(session.isDone).toBe(true);
    expect(text((await readAll(session, 0)).parts)).toBe('abc');
    expect(held).toBe(0);
  });
});
