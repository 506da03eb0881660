import { expect } from 'chai';
import { ReplyQueue, type Reply, type SendOutcome } from '../src/replies/reply-queue.js';

function harness(answers: SendOutcome[]) {
  const sent: Array<{ key: string; body: string }> = [];
  const timers: Array<() => void> = [];
  const waiting: Array<(o: SendOutcome) => void> = [];
  let n = 0;
  const queue = new ReplyQueue({
    send: (reply: Reply) => {
      sent.push({ key: reply.idempotencyKey, body: reply.body });
      const answer = answers.shift();
      return answer ? Promise.resolve(answer) : new Promise((resolve) => waiting.push(resolve));
    },
    newId: () => `id-${++n}`,
    now: () => 0,
    setTimer: (run) => timers.push(run),
  });
  return { queue, sent, timers, waiting };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('console: the reply queue', () => {
  it('holds replies typed while offline and sends each once, in order, when back', async () => {
    const h = harness([{ kind: 'sent' }, { kind: 'sent' }]);
    h.queue.setOnline(false);
    h.queue.add({ ticketId: 1, body: 'first' });
    h.queue.add({ ticketId: 1, body: 'second' });
    expect(h.sent).to.have.length(0);
    expect(h.queue.pending().map((r) => r.state)).to.deep.equal(['queued', 'queued']);
    h.queue.setOnline(true);
    h.queue.setOnline(true);
    await settle();
    expect(h.sent.map((s) => s.body)).to.deep.equal(['first', 'second']);
    expect(h.queue.pending()).to.have.length(0);
  });

  it('retries an unknown outcome with the same idempotency key', async () => {
    const h = harness([{ kind: 'unknown' }, { kind: 'sent' }]);
    h.queue.add({ ticketId: 1, body: 'hello' });
    await settle();
    expect(h.sent).to.have.length(1);
    expect(h.queue.pending()[0]!.state).to.equal('queued');
    h.timers.shift()!();
    await settle();
    expect(h.sent).to.have.length(2);
    expect(h.sent[0]!.key).to.equal(h.sent[1]!.key);
    expect(h.queue.pending()).to.have.length(0);
  });

  it('never sends two replies of a conversation at once', async () => {
    const h = harness([]);
    h.queue.add({ ticketId: 1, body: 'a' });
    h.queue.add({ ticketId: 1, body: 'b' });
    h.queue.add({ ticketId: 2, body: 'c' });
    await settle();
    expect(h.sent.map((s) => s.body)).to.deep.equal(['a', 'c']);
    h.waiting.shift()!({ kind: 'sent' });
    await settle();
    expect(h.sent.map((s) => s.body)).to.deep.equal(['a', 'c', 'b']);
  });

  it('keeps a refused reply with its reason until the operator retries or discards it', async () => {
    const h = harness([{ kind: 'refused', error: 'ERR_BIZCHAT_WINDOW_CLOSED' }, { kind: 'sent' }]);
    const reply = h.queue.add({ ticketId: 1, body: 'late' });
    await settle();
    expect(h.queue.pending()[0]).to.include({ state: 'failed', error: 'ERR_BIZCHAT_WINDOW_CLOSED' });
    h.queue.retry(reply.localId);
    await settle();
    expect(h.sent).to.have.length(2);
    expect(h.sent[1]!.key).to.equal(h.sent[0]!.key);
    expect(h.queue.pending()).to.have.length(0);
  });
});
