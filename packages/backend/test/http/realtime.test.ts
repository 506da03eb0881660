import { expect } from 'chai';
import WebSocket from 'ws';
import { seqKey, windowKey } from '@servicedesk/adapters-http';
import { newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

interface Frame {
  seq: number;
  event: string;
  data: { action: string } & Record<string, unknown>;
}

function connect(url: string): Promise<{ ws: WebSocket; frames: Frame[]; next: (n?: number) => Promise<Frame[]> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const frames: Frame[] = [];
    const waiters: Array<() => void> = [];
    ws.on('message', (raw) => {
      frames.push(JSON.parse(String(raw)));
      for (const w of waiters.splice(0)) w();
    });
    ws.on('open', () =>
      resolve({
        ws,
        frames,
        next: (n = 1) =>
          new Promise((done, fail) => {
            const timer = setTimeout(() => fail(new Error(`expected ${n} frames, got ${frames.length}`)), 3000);
            const check = () => {
              if (frames.length >= n) {
                clearTimeout(timer);
                done(frames.slice(0, n));
              } else waiters.push(check);
            };
            check();
          }),
      }),
    );
    ws.on('unexpected-response', (_req, res) => reject(Object.assign(new Error('refused'), { status: res.statusCode })));
    ws.on('error', reject);
  });
}

describe('Realtime: company namespaces', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  const wsUrl = (companyId: number, token: string, since?: number) =>
    `${b.url.replace('http', 'ws')}/${companyId}?token=${token}${since === undefined ? '' : `&since=${since}`}`;

  it('delivers company events with an increasing seq to that company only', async () => {
    const a = await newCompanyWithAdmin(b);
    const other = await newCompanyWithAdmin(b);
    const sa = await connect(wsUrl(a.company.id, a.token));
    const so = await connect(wsUrl(other.company.id, other.token));
    await a.api.post('/users', { name: 'Op One', email: 'rt1@x.test', password: 'op-password' });
    await a.api.put('/settings/userRating', { value: 'enabled' });
    const [created, setting] = await sa.next(2);
    expect(created!.event).to.equal(`company-${a.company.id}-user`);
    expect(created!.data.action).to.equal('create');
    expect(setting!.event).to.equal(`company-${a.company.id}-settings`);
    expect(setting!.seq).to.be.greaterThan(created!.seq);
    // A change in the other company after A's reaches its socket, and it is the only frame there: none of A's came.
    await other.api.put('/settings/userRating', { value: 'enabled' });
    const [theirs] = await so.next(1);
    expect(so.frames.map((f) => f.event)).to.deep.equal([`company-${other.company.id}-settings`]);
    expect(theirs!.event).to.equal(`company-${other.company.id}-settings`);
    sa.ws.close();
    so.ws.close();
  });

  it('refuses a bad token and a token of another company', async () => {
    const a = await newCompanyWithAdmin(b);
    const other = await newCompanyWithAdmin(b);
    const bad = await connect(wsUrl(a.company.id, 'garbage')).catch((e) => e);
    expect(bad.status).to.equal(401);
    const cross = await connect(wsUrl(other.company.id, a.token)).catch((e) => e);
    expect(cross.status).to.equal(403);
  });

  it('replays what a reconnecting client missed, and asks for a resync when it cannot', async () => {
    const a = await newCompanyWithAdmin(b);
    const first = await connect(wsUrl(a.company.id, a.token));
    await a.api.put('/settings/userRating', { value: 'enabled' });
    const [seen] = await first.next(1);
    first.ws.close();
    await a.api.put('/settings/userRating', { value: 'disabled' });
    await a.api.put('/settings/call', { value: 'disabled' });
    const again = await connect(wsUrl(a.company.id, a.token, seen!.seq));
    const missed = await again.next(2);
    expect(missed.map((f) => f.seq)).to.deep.equal([seen!.seq + 1, seen!.seq + 2]);
    expect(missed.map((f) => f.data.setting)).to.deep.equal([
      { key: 'userRating', value: 'disabled' },
      { key: 'call', value: 'disabled' },
    ]);
    again.ws.close();
    const ahead = await connect(wsUrl(a.company.id, a.token, 10_000));
    const [resync] = await ahead.next(1);
    expect(resync!.event).to.equal('resync');
    ahead.ws.close();
  });

  it('puts frames that crossed on the way (two instances publishing) back in seq order, filling a lasting gap from the window', async () => {
    const a = await newCompanyWithAdmin(b);
    const client = await connect(wsUrl(a.company.id, a.token));
    await a.api.put('/settings/userRating', { value: 'enabled' });
    const [base] = await client.next(1);
    // Numbered from the shared counter, written to the window, then published independently (as each instance does).
    const frames: string[] = [];
    for (let i = 0; i < 7; i++) {
      const seq = await b.cache.increment(seqKey(a.company.id), 3600);
      const frame = JSON.stringify({ seq, event: `company-${a.company.id}-probe`, data: { action: 'probe', i } });
      frames.push(frame);
      if (i !== 5) await b.cache.windowAppend(windowKey(a.company.id), seq, frame, 1000, 3600);
    }
    const publish = (i: number) => b.infra.fanout.publish(a.company.id, frames[i]!);
    await publish(1);
    await publish(2);
    await new Promise((r) => setTimeout(r, 30));
    await publish(0);
    await publish(4);
    await publish(0);
    // Frame 3 never comes live but is in the window; frame 5 is nowhere: both gaps close after a short wait.
    await new Promise((r) => setTimeout(r, 400));
    await publish(6);
    await new Promise((r) => setTimeout(r, 400));
    const got = (await client.next(7)).slice(1).map((f) => f.seq - base!.seq);
    expect(got).to.deep.equal([1, 2, 3, 4, 5, 7]);
    client.ws.close();
  });
});
