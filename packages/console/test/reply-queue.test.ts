import { expect } from 'chai';
import { ReplyQueue, type Reply, type SendControl, type SendOutcome } from '../src/replies/reply-queue.js';

function harness(answers: SendOutcome[]) {
  const sent: Array<{ key: string; body: string }> = [];
  const controls: SendControl[] = [];
  const timers: Array<() => void> = [];
  const waiting: Array<(o: SendOutcome) => void> = [];
  let n = 0;
  const queue = new ReplyQueue({
    send: (reply: Reply, control: SendControl) => {
      sent.push({ key: reply.idempotencyKey, body: reply.body });
      controls.push(control);
      const answer = answers.shift();
      return answer ? Promise.resolve(answer) : new Promise((resolve) => waiting.push(resolve));
    },
    newId: () => `id-${++n}`,
    now: () => 0,
    setTimer: (run) => timers.push(run),
  });
  return { queue, sent, controls, timers, waiting };
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

  it('takes back replies not yet sent: the batch returns to its box in order, with the text as typed, and nothing goes out', async () => {
    const h = harness([]);
    const file = new File(['a'], 'a.txt');
    h.queue.setOnline(false);
    const [text, withFile] = h.queue.addAll([
      { ticketId: 1, body: '*Ana:*\nhello', draft: 'hello' },
      { ticketId: 1, body: '*Ana:*\nthe receipt', draft: 'the receipt', files: [file] },
    ]);
    expect(text!.batch).to.equal(withFile!.batch);
    h.queue.cancel(text!.localId);
    expect(h.queue.pending()).to.have.length(0);
    expect(h.queue.takeReturned(2)).to.deep.equal([]);
    const back = h.queue.takeReturned(1);
    expect(back.map((r) => [r.draft, r.files])).to.deep.equal([
      ['hello', []],
      ['the receipt', [file]],
    ]);
    expect(h.queue.takeReturned(1), 'taken once').to.deep.equal([]);
    h.queue.setOnline(true);
    await settle();
    expect(h.sent).to.have.length(0);
  });

  it('shows the upload progress; a cancel during the upload returns the reply and the rest of its batch, and the next reply goes out', async () => {
    const h = harness([]);
    const [first, second] = h.queue.addAll([
      { ticketId: 1, body: 'one', files: [new File(['1'], '1.txt')] },
      { ticketId: 1, body: 'two', files: [new File(['2'], '2.txt')] },
    ]);
    const later = h.queue.add({ ticketId: 1, body: 'typed afterwards' });
    await settle();
    expect(h.sent.map((s) => s.body)).to.deep.equal(['one']);
    const seen: Array<number | null> = [];
    h.queue.subscribe((list) => seen.push(list[0]!.progress));
    h.controls[0]!.progress(0.25);
    h.controls[0]!.progress(0.5);
    expect(seen).to.deep.equal([0.25, 0.5]);
    h.queue.cancel(first!.localId);
    expect(h.controls[0]!.signal.aborted, 'the transport is asked to stop').to.equal(true);
    // The one sending stays until its transport answers; the rest of its batch is back already.
    expect(h.queue.pending().map((r) => r.body)).to.deep.equal(['one', 'typed afterwards']);
    h.waiting.shift()!({ kind: 'cancelled' });
    await settle();
    expect(h.queue.takeReturned(1).map((r) => r.localId)).to.deep.equal([first!.localId, second!.localId]);
    expect(h.sent.map((s) => s.body)).to.deep.equal(['one', 'typed afterwards']);
    expect(h.queue.pending().map((r) => r.localId)).to.deep.equal([later.localId]);
    expect(h.queue.pending()[0]!.progress).to.equal(null);
  });

  it('a cancel that comes after the server has the upload changes nothing: the reply is sent, only the rest of the batch returns', async () => {
    const h = harness([]);
    const [first, second] = h.queue.addAll([
      { ticketId: 1, body: 'one', files: [new File(['1'], '1.txt')] },
      { ticketId: 1, body: 'two', files: [new File(['2'], '2.txt')] },
    ]);
    await settle();
    h.controls[0]!.progress(1);
    h.queue.cancel(first!.localId);
    h.waiting.shift()!({ kind: 'sent' });
    await settle();
    expect(h.queue.pending()).to.have.length(0);
    expect(h.queue.takeReturned(1).map((r) => r.localId)).to.deep.equal([second!.localId]);
    expect(h.sent.map((s) => s.body)).to.deep.equal(['one']);
  });

  it('never takes back a reply whose earlier attempt may have reached the server', async () => {
    const h = harness([{ kind: 'unknown' }]);
    const reply = h.queue.add({ ticketId: 1, body: 'maybe there' });
    await settle();
    expect(h.queue.pending()[0]).to.include({ state: 'queued', mayHaveArrived: true });
    h.queue.cancel(reply.localId);
    expect(h.queue.takeReturned(1)).to.deep.equal([]);
    h.timers.shift()!();
    await settle();
    expect(h.controls[1]!.signal.aborted).to.equal(false);
    h.queue.cancel(reply.localId);
    expect(h.controls[1]!.signal.aborted, 'the retry is not stopped either').to.equal(false);
    h.waiting.shift()!({ kind: 'sent' });
    await settle();
    expect(h.sent.map((s) => s.key)).to.deep.equal([reply.idempotencyKey, reply.idempotencyKey]);
    expect(h.queue.pending()).to.have.length(0);
  });
});
