import { expect } from 'chai';
import { CAMPAIGN_STATUSES, nextStatus, TRANSITIONS, type CampaignAction } from '../../src/campaigns/campaign.js';
import { admin, campaignWorld, code, numbers, operator, otherAdmin } from './campaign-world.js';

describe('Campaigns: the state machine', () => {
  it("allows exactly the documented moves, in the lineage's status values", () => {
    const allowed: string[] = [];
    for (const from of CAMPAIGN_STATUSES) {
      for (const action of Object.keys(TRANSITIONS) as CampaignAction[]) {
        const to = nextStatus(from, action);
        if (to) allowed.push(`${from} -${action}-> ${to}`);
      }
    }
    expect(allowed).to.have.members([
      'INATIVA -schedule-> PROGRAMADA',
      'INATIVA -start-> EM_ANDAMENTO',
      'PROGRAMADA -unschedule-> INATIVA',
      'PROGRAMADA -start-> EM_ANDAMENTO',
      'PROGRAMADA -cancel-> CANCELADA',
      'PROGRAMADA -fail-> FALHOU',
      'EM_ANDAMENTO -pause-> PAUSADA',
      'EM_ANDAMENTO -cancel-> CANCELADA',
      'EM_ANDAMENTO -complete-> FINALIZADA',
      'EM_ANDAMENTO -fail-> FALHOU',
      'PAUSADA -resume-> EM_ANDAMENTO',
      'PAUSADA -cancel-> CANCELADA',
      'PAUSADA -fail-> FALHOU',
      'CANCELADA -restart-> EM_ANDAMENTO',
      'FALHOU -restart-> EM_ANDAMENTO',
    ]);
    expect(nextStatus('FINALIZADA', 'restart')).to.equal(null);
  });

  it('applies a transition only from a stored status it names: of two concurrent moves exactly one wins', async () => {
    const w = campaignWorld();
    const c = await w.addCampaign({ status: 'PROGRAMADA' });
    const results = await Promise.all([
      w.campaigns.transition(c.companyId, c.id, ['PROGRAMADA'], 'EM_ANDAMENTO'),
      w.campaigns.transition(c.companyId, c.id, ['PROGRAMADA'], 'EM_ANDAMENTO'),
    ]);
    expect(results.filter(Boolean)).to.have.length(1);
    expect(await w.campaigns.transition(c.companyId, c.id, ['PROGRAMADA'], 'CANCELADA')).to.equal(false);
    expect(await w.campaigns.transition(2, c.id, ['EM_ANDAMENTO'], 'PAUSADA'), 'another company').to.equal(false);
    expect((await w.campaigns.findById(c.companyId, c.id))!.status).to.equal('EM_ANDAMENTO');
  });

  it('starts a due campaign once, however long ago it was due, with its recipients materialised once', async () => {
    const w = campaignWorld();
    w.addList(
      1,
      numbers(3).map((number) => ({ number })),
    );
    const c = await w.addCampaign({ status: 'PROGRAMADA', scheduledAt: new Date(w.clock.now().getTime() - 5 * 86_400_000) });
    const [a, b] = await Promise.all([w.app.startDue.execute(), w.app.startDue.execute()]);
    expect(a + b).to.equal(1);
    expect(await w.app.startDue.execute()).to.equal(0);
    const stored = (await w.campaigns.findById(c.companyId, c.id))!;
    expect(stored.status).to.equal('EM_ANDAMENTO');
    expect(stored.materializedAt).to.be.instanceOf(Date);
    expect(w.recipients.snapshot()).to.have.length(3);
    expect(w.events.map((e) => `${e.event.entity}:${e.event.data.action}`)).to.deep.equal(['campaign:update']);
  });

  it('a scheduled campaign that cannot run ends FALHOU with the reason; started by hand it answers 422', async () => {
    const w = campaignWorld();
    const noAudience = await w.addCampaign({ status: 'PROGRAMADA', scheduledAt: w.clock.now(), contactListId: null });
    await w.app.startDue.execute();
    expect(await w.campaigns.findById(1, noAudience.id)).to.include({ status: 'FALHOU', failureReason: 'ERR_CAMPAIGN_NO_AUDIENCE' });
    const noMessage = await w.addCampaign({ message1: '  ' });
    expect(await code(w.app.start.execute({ actor: admin, campaignId: noMessage.id }))).to.equal('ERR_CAMPAIGN_NO_MESSAGE');
    const noConnection = await w.addCampaign({ chatappId: 999 });
    expect(await code(w.app.start.execute({ actor: admin, campaignId: noConnection.id }))).to.equal('ERR_CAMPAIGN_NO_CONNECTION');
    w.connections.rows.set(20, { id: 20, companyId: 1, kind: 'bizchat', connected: true });
    const biz = await w.addCampaign({ chatappId: 20 });
    expect(await code(w.app.start.execute({ actor: admin, campaignId: biz.id }))).to.equal('ERR_CAMPAIGN_TEMPLATE_REQUIRED');
    expect(w.recipients.snapshot()).to.deep.equal([]);
  });

  it('pause, resume, cancel and restart check the stored status, the role, the plan and the company', async () => {
    const w = campaignWorld();
    w.addList(
      1,
      numbers(2).map((number) => ({ number })),
    );
    const c = await w.addCampaign();
    expect(await code(w.app.pause.execute({ actor: admin, campaignId: c.id }))).to.equal('ERR_CAMPAIGN_STATUS_CONFLICT');
    await w.app.start.execute({ actor: admin, campaignId: c.id });
    expect(await code(w.app.start.execute({ actor: admin, campaignId: c.id }))).to.equal('ERR_CAMPAIGN_STATUS_CONFLICT');
    expect(await code(w.app.pause.execute({ actor: operator, campaignId: c.id }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(w.app.pause.execute({ actor: otherAdmin, campaignId: c.id }))).to.equal('ERR_NO_CAMPAIGN_FOUND');
    w.plan.disabled.add(1);
    expect(await code(w.app.pause.execute({ actor: admin, campaignId: c.id }))).to.equal('ERR_PLAN_FEATURE_DISABLED');
    w.plan.disabled.clear();
    await w.app.pause.execute({ actor: admin, campaignId: c.id });
    expect(await code(w.app.restart.execute({ actor: admin, campaignId: c.id }))).to.equal('ERR_CAMPAIGN_STATUS_CONFLICT');
    await w.app.resume.execute({ actor: admin, campaignId: c.id });
    await w.app.cancel.execute({ actor: admin, campaignId: c.id });
    expect(await code(w.app.resume.execute({ actor: admin, campaignId: c.id }))).to.equal('ERR_CAMPAIGN_STATUS_CONFLICT');
    await w.app.restart.execute({ actor: admin, campaignId: c.id });
    expect((await w.campaigns.findById(1, c.id))!.status).to.equal('EM_ANDAMENTO');
    expect(w.recipients.snapshot(), 'materialised once, at the first start').to.have.length(2);
    expect(w.events.filter((e) => e.event.entity === 'campaign').map((e) => (e.event.data as { record: { status: string } }).record.status)).to.deep.equal([
      'EM_ANDAMENTO',
      'PAUSADA',
      'EM_ANDAMENTO',
      'CANCELADA',
      'EM_ANDAMENTO',
    ]);
  });

  it('a campaign cancelled before it ever ran is materialised when restarted', async () => {
    const w = campaignWorld();
    w.addList(
      1,
      numbers(2).map((number) => ({ number })),
    );
    const c = await w.addCampaign({ status: 'PROGRAMADA', scheduledAt: new Date(w.clock.now().getTime() + 3_600_000) });
    await w.app.cancel.execute({ actor: admin, campaignId: c.id });
    expect(w.recipients.snapshot()).to.have.length(0);
    await w.app.restart.execute({ actor: admin, campaignId: c.id });
    expect(w.recipients.snapshot()).to.have.length(2);
  });
});
