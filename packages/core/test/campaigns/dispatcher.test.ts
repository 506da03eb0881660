import { expect } from 'chai';
import { campaignIdempotencyKey } from '../../src/campaigns/dispatch-connection.js';
import { admin, ACME, campaignWorld, CONNECTION, numbers, type CampaignWorld } from './campaign-world.js';

async function running(w: CampaignWorld, count: number, fields = {}) {
  w.addList(
    1,
    numbers(count).map((number, i) => ({ number, name: `N${i}` })),
  );
  const c = await w.addCampaign(fields);
  await w.app.start.execute({ actor: admin, campaignId: c.id });
  return c;
}

describe('Campaigns: the dispatcher', () => {
  it('sends one recipient per gap, through the sender with a key per recipient, and completes the campaign', async () => {
    const w = campaignWorld();
    const c = await running(w, 3);
    const d = w.dispatcher();
    const first = await d.execute({ companyId: ACME, connectionId: CONNECTION });
    expect(first.sent).to.equal(1);
    expect(first.reason).to.equal('gap');
    expect(first.nextRunAt!.getTime() - w.clock.t).to.be.within(1000, 2000);
    expect(w.sender.sent[0]).to.include({
      number: numbers(3)[0],
      body: 'Hi N0',
      idempotencyKey: campaignIdempotencyKey({ campaignId: c.id, id: 1, stage: 'message' }),
    });
    expect((await d.execute({ companyId: ACME, connectionId: CONNECTION })).sent, 'too early').to.equal(0);
    for (let i = 0; i < 2; i++) {
      w.clock.set((await d.execute({ companyId: ACME, connectionId: CONNECTION })).nextRunAt!);
      await d.execute({ companyId: ACME, connectionId: CONNECTION });
    }
    expect(w.sender.sent).to.have.length(3);
    const done = await d.execute({ companyId: ACME, connectionId: CONNECTION });
    expect(done).to.deep.equal({ sent: 0, nextRunAt: null, reason: 'nothing-due' });
    expect(await w.campaigns.findById(ACME, c.id)).to.include({ status: 'FINALIZADA' });
    expect((await w.campaigns.findById(ACME, c.id))!.completedAt).to.deep.equal(w.clock.now());
    const progress = w.events.filter((e) => e.event.entity === 'campaignProgress').at(-1)!.event.data as { progress: { sent: number } };
    expect(progress.progress.sent).to.equal(3);
  });

  it('pause and cancel stop it before the next send; resume goes on paced from the last actual send', async () => {
    const w = campaignWorld();
    const c = await running(w, 3);
    const d = w.dispatcher();
    const r1 = await d.execute({ companyId: ACME, connectionId: CONNECTION });
    await w.app.pause.execute({ actor: admin, campaignId: c.id });
    w.clock.set(r1.nextRunAt!);
    expect(await d.execute({ companyId: ACME, connectionId: CONNECTION })).to.deep.include({ sent: 0, nextRunAt: null });
    w.clock.advance(3_600_000);
    await w.app.resume.execute({ actor: admin, campaignId: c.id });
    expect(await w.pacing.dueConnections(w.clock.now(), 10)).to.deep.equal([{ companyId: ACME, connectionId: CONNECTION }]);
    const r2 = await d.execute({ companyId: ACME, connectionId: CONNECTION });
    expect(r2.sent, 'one at once, not the rest of the list').to.equal(1);
    await w.app.cancel.execute({ actor: admin, campaignId: c.id });
    w.clock.set(r2.nextRunAt!);
    expect((await d.execute({ companyId: ACME, connectionId: CONNECTION })).sent).to.equal(0);
    expect(w.sender.sent).to.have.length(2);
    expect(await w.campaigns.findById(ACME, c.id)).to.include({ status: 'CANCELADA' });
  });

  it("a paused campaign between claim and send is not sent: the status is read again in the send's transaction", async () => {
    const w = campaignWorld();
    const c = await running(w, 2);
    const d = w.dispatcher();
    const original = w.recipients.claimNext.bind(w.recipients);
    w.recipients.claimNext = async (...args) => {
      const r = await original(...args);
      await w.campaigns.transition(ACME, c.id, ['EM_ANDAMENTO'], 'PAUSADA');
      return r;
    };
    await d.execute({ companyId: ACME, connectionId: CONNECTION });
    expect(w.sender.sent).to.have.length(0);
    expect(w.recipients.snapshot().every((r) => r.state === 'pending' && r.claimedUntil === null)).to.equal(true);
  });

  it('fails a recipient on a permanent error, retries it later on a transient one, waits for a disconnected connection', async () => {
    const w = campaignWorld();
    await running(w, 3);
    const d = w.dispatcher();
    w.sender.failNext.push({ reason: 'ERR_CONNECTION_NOT_READY', retryable: true });
    const retry = await d.execute({ companyId: ACME, connectionId: CONNECTION });
    expect(retry).to.include({ sent: 0, reason: 'disconnected' });
    w.clock.set(retry.nextRunAt!);
    w.sender.failNext.push({ reason: 'ERR_INVALID_NUMBER', retryable: false });
    const next = await d.execute({ companyId: ACME, connectionId: CONNECTION });
    expect(next.sent, 'nothing went out for the failed one, so the next one goes at once').to.equal(1);
    expect(w.recipients.snapshot()[0]).to.include({ state: 'failed', reason: 'ERR_INVALID_NUMBER', attempts: 1 });
    w.clock.set(next.nextRunAt!);
    w.connections.rows.get(CONNECTION)!.connected = false;
    const down = await d.execute({ companyId: ACME, connectionId: CONNECTION });
    expect(down).to.include({ sent: 0, reason: 'disconnected' });
    w.connections.rows.get(CONNECTION)!.connected = true;
    w.clock.set(down.nextRunAt!);
    expect((await d.execute({ companyId: ACME, connectionId: CONNECTION })).sent).to.equal(1);
  });

  it("follows the channel's acknowledgements forward only, and rests the connection after rate limits", async () => {
    const w = campaignWorld();
    w.setSettings({ backoffErrorThreshold: '2', backoffPauseMinutes: '10' });
    await running(w, 4);
    const d = w.dispatcher();
    for (let i = 0; i < 3; i++) w.clock.set((await d.execute({ companyId: ACME, connectionId: CONNECTION })).nextRunAt!);
    const [m1, m2, m3] = w.sender.sent.map((s) => s.messageId);
    await w.app.status.execute({ messageId: m1!, status: 'read' });
    expect(await w.app.status.execute({ messageId: m1!, status: 'delivered' })).to.equal(false);
    await w.app.status.execute({ messageId: m2!, status: 'failed', reason: '429 rate-overlimit' });
    await w.app.status.execute({ messageId: m3!, status: 'failed', reason: 'rate-overlimit' });
    const [a, b] = w.recipients.snapshot();
    expect(a).to.include({ state: 'read' });
    expect(b).to.include({ state: 'failed', reason: '429 rate-overlimit' });
    expect(await d.execute({ companyId: ACME, connectionId: CONNECTION })).to.deep.include({
      sent: 0,
      reason: 'backoff',
      nextRunAt: new Date(w.clock.t + 600_000),
    });
  });
});
