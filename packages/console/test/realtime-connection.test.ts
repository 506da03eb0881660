import { expect } from 'chai';
import { RealtimeConnection, SESSION_EXPIRED_CODE, type RealtimeFrame, type SocketLike } from '../src/realtime/connection.js';

class FakeSocket implements SocketLike {
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {}
  close() {
    this.closed = true;
    this.onclose?.({ code: 1006, reason: '' });
  }
  open() {
    this.onopen?.();
  }
  /** What the client sent. */
  readonly sent: string[] = [];
  send(data: string) {
    this.sent.push(data);
  }
  /** A frame from the server. */
  deliver(frame: object) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(code = 1006) {
    this.onclose?.({ code, reason: '' });
  }
}

function harness(opts: { renew?: () => Promise<string | null> } = {}) {
  const sockets: FakeSocket[] = [];
  const timers: Array<() => void> = [];
  const frames: RealtimeFrame[] = [];
  const states: string[] = [];
  let reloads = 0;
  const connection = new RealtimeConnection({
    url: 'ws://host/1',
    token: () => 'tok',
    renew: opts.renew ?? (async () => 'tok2'),
    openSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    setTimer: (run) => timers.push(run),
    clearTimer: () => undefined,
    random: () => 0.5,
  });
  connection.listen({ frame: (f) => frames.push(f), reload: () => reloads++, state: (s) => states.push(s) });
  return {
    connection,
    sockets,
    timers,
    frames,
    states,
    reloads: () => reloads,
    fire: () => {
      for (const t of timers.splice(0)) t();
    },
  };
}

const frame = (seq: number) => ({ seq, event: 'company-1-ticket', data: { action: 'update', n: seq } });

describe('console: the realtime connection', () => {
  it('resumes from the last seq after a drop, delivering the replay once', () => {
    const h = harness();
    h.connection.start();
    h.sockets[0]!.open();
    h.sockets[0]!.deliver(frame(5));
    h.sockets[0]!.deliver(frame(6));
    h.sockets[0]!.drop();
    expect(h.states.at(-1)).to.equal('reconnecting');
    h.fire();
    expect(h.sockets[1]!.url).to.equal('ws://host/1?token=tok&since=6');
    h.sockets[1]!.open();
    // The server replays what was missed; a frame already seen (an overlap) is not delivered again.
    h.sockets[1]!.deliver(frame(6));
    h.sockets[1]!.deliver(frame(7));
    h.sockets[1]!.deliver(frame(8));
    expect(h.frames.map((f) => f.seq)).to.deep.equal([5, 6, 7, 8]);
    expect(h.reloads()).to.equal(0);
    expect(h.states.at(-1)).to.equal('live');
  });

  it('asks to reload when the server cannot replay (resync), and goes on from its seq', () => {
    const h = harness();
    h.connection.start();
    h.sockets[0]!.open();
    h.sockets[0]!.deliver(frame(3));
    h.sockets[0]!.drop();
    h.fire();
    h.sockets[1]!.open();
    h.sockets[1]!.deliver({ seq: 2000, event: 'resync', data: { action: 'resync', since: 3, current: 2000 } });
    expect(h.reloads()).to.equal(1);
    h.sockets[1]!.deliver(frame(2001));
    expect(h.frames.map((f) => f.seq)).to.deep.equal([3, 2001]);
    expect(h.connection.seq).to.equal(2001);
  });

  it('asks to reload after a reconnect when no seq was ever seen', () => {
    const h = harness();
    h.connection.start();
    h.sockets[0]!.open();
    h.sockets[0]!.drop();
    h.fire();
    expect(h.sockets[1]!.url).to.equal('ws://host/1?token=tok');
    h.sockets[1]!.open();
    expect(h.reloads()).to.equal(1);
  });

  it('renews the token when the server ends the session, and stops when it cannot', async () => {
    let renewed = 0;
    const h = harness({ renew: async () => (++renewed === 1 ? 'tok2' : null) });
    h.connection.start();
    h.sockets[0]!.open();
    h.sockets[0]!.drop(SESSION_EXPIRED_CODE);
    await Promise.resolve();
    await Promise.resolve();
    expect(renewed).to.equal(1);
    h.fire();
    h.sockets[1]!.open();
    h.sockets[1]!.drop(SESSION_EXPIRED_CODE);
    await Promise.resolve();
    await Promise.resolve();
    expect(renewed).to.equal(2);
    expect(h.connection.state).to.equal('stopped');
    expect(h.timers).to.have.length(0);
  });

  it('backs off between attempts while the server is away', () => {
    const delays: number[] = [];
    const sockets: FakeSocket[] = [];
    const connection = new RealtimeConnection({
      url: 'ws://host/1',
      token: () => 'tok',
      renew: async () => 'tok',
      openSocket: (url) => {
        const s = new FakeSocket(url);
        sockets.push(s);
        return s;
      },
      setTimer: (_run, ms) => delays.push(ms),
      random: () => 1,
    });
    connection.start();
    sockets[0]!.open();
    sockets[0]!.drop();
    expect(delays).to.deep.equal([250]);
    connection.stop();
    expect(connection.state).to.equal('stopped');
  });

  it('sends a client message only while live, as one JSON text, and ignores frames without a seq in its count', () => {
    const h = harness();
    h.connection.start();
    expect(h.connection.send('joinChatBox', 7)).to.equal(false);
    h.sockets[0]!.open();
    expect(h.connection.send('joinChatBox', 7)).to.equal(true);
    expect(h.sockets[0]!.sent).to.deep.equal(['{"event":"joinChatBox","data":7}']);
    h.sockets[0]!.deliver(frame(3));
    h.sockets[0]!.deliver({ event: 'company-1-ticketViewer', data: { action: 'join', ticketId: 7, userId: 2, userName: 'Bia' } });
    expect(h.frames.map((f) => f.event)).to.deep.equal(['company-1-ticket', 'company-1-ticketViewer']);
    expect(h.connection.seq).to.equal(3);
    h.sockets[0]!.drop();
    expect(h.connection.send('joinChatBoxLeave', 7)).to.equal(false);
    expect(h.sockets[0]!.sent).to.have.length(1);
  });
});
