import { expect } from 'chai';
import { InMemoryBlobStorage, SequentialIds } from '../../src/in-memory/support.js';
import { RunCampaign } from '../../src/campaigns/control-campaigns.js';
import { CreateCampaign } from '../../src/campaigns/create-campaign.js';
import { DeleteCampaign } from '../../src/campaigns/delete-campaign.js';
import { ListAllCampaigns } from '../../src/campaigns/list-all-campaigns.js';
import { ListCampaigns } from '../../src/campaigns/list-campaigns.js';
import { ListCampaignSettings } from '../../src/campaigns/list-campaign-settings.js';
import { parseScheduledAt } from '../../src/campaigns/manage-campaigns.js';
import { RemoveCampaignMedia } from '../../src/campaigns/remove-campaign-media.js';
import { SaveCampaignSettings } from '../../src/campaigns/save-campaign-settings.js';
import { SetCampaignMedia } from '../../src/campaigns/set-campaign-media.js';
import { UpdateCampaign } from '../../src/campaigns/update-campaign.js';
import { ACME, admin, campaignWorld, code, CONNECTION, numbers, operator, OTHER, otherAdmin } from './campaign-world.js';

function world() {
  const w = campaignWorld();
  const blobs = new InMemoryBlobStorage();
  const ids = new SequentialIds();
  const { campaigns, references, settings, connections, plan, announcer, realtime, clock, transaction } = w;
  const writes = { campaigns, references, settings, connections, plan, announcer, clock };
  references.set(ACME, 'tag', 7, 'VIP');
  references.set(ACME, 'user', 2, 'Ana');
  references.set(ACME, 'queue', 3, 'Sales');
  references.set(OTHER, 'contactList', 50, 'Theirs');
  const media = { campaigns, plan, blobs, ids, clock, announcer };
  return {
    ...w,
    blobs,
    create: new CreateCampaign(writes),
    update: new UpdateCampaign(writes),
    remove: new DeleteCampaign({ campaigns, plan, blobs, announcer }),
    list: new ListCampaigns({ campaigns, plan, views: w.views }),
    listAll: new ListAllCampaigns({ campaigns, plan, views: w.views }),
    setMedia: new SetCampaignMedia(media),
    removeMedia: new RemoveCampaignMedia(media),
    run: new RunCampaign(w.launch),
    listSettings: new ListCampaignSettings({ settings, plan }),
    saveSettings: new SaveCampaignSettings({ settings, pacing: w.pacing, plan, tx: transaction, clock, realtime }),
  };
}

const file = (data: string, filename = 'flyer.png', contentType = 'image/png') => ({ filename, contentType, data: Buffer.from(data) });

describe('Campaigns: writing them', () => {
  it('reads a time without offset on the company wall clock, and ISO with its offset as it says', () => {
    expect(parseScheduledAt('2024-06-03 09:30:00', 'America/Sao_Paulo').toISOString()).to.equal('2024-06-03T12:30:00.000Z');
    expect(parseScheduledAt('2024-06-03T09:30', 'Europe/Lisbon').toISOString()).to.equal('2024-06-03T08:30:00.000Z');
    // New York's clocks jump from 02:00 to 03:00 on 2024-03-10: before and after the change.
    expect(parseScheduledAt('2024-03-09 10:00:00', 'America/New_York').toISOString()).to.equal('2024-03-09T15:00:00.000Z');
    expect(parseScheduledAt('2024-03-11 10:00:00', 'America/New_York').toISOString()).to.equal('2024-03-11T14:00:00.000Z');
    expect(parseScheduledAt('2024-06-03T09:30:00-03:00', 'Asia/Tokyo').toISOString()).to.equal('2024-06-03T12:30:00.000Z');
    for (const bad of ['tomorrow', '2024-02-30 10:00:00', '2024-02-30T10:00:00Z', '2024-06-03 25:00', '', '2024-06-03']) {
      expect(() => parseScheduledAt(bad, 'America/Sao_Paulo'), bad)
        .to.throw()
        .with.property('code', 'ERR_CAMPAIGN_INVALID_SCHEDULE');
    }
  });

  it('creates a draft, or a scheduled campaign when it has a time, with the names of what it points at', async () => {
    const w = world();
    const draft = await w.create.execute({ actor: admin, campaign: { name: '  Launch ', message1: 'Hi {nome}' } });
    expect(draft).to.include({ name: 'Launch', status: 'INATIVA', scheduledAt: null, contactList: null });
    const scheduled = await w.create.execute({
      actor: admin,
      campaign: { name: 'Sale', message1: 'Hi', contactListId: 1, chatappId: CONNECTION, userId: 2, queueId: 3, scheduledAt: '2024-06-10 09:00:00' },
    });
    expect(scheduled).to.deep.include({
      status: 'PROGRAMADA',
      scheduledAt: '2024-06-10T12:00:00.000Z',
      contactList: { id: 1, name: 'Customers' },
      chatapp: { id: CONNECTION, name: 'Main number' },
      user: { id: 2, name: 'Ana' },
      queue: { id: 3, name: 'Sales' },
    });
    expect(w.events.map((e) => `${e.event.entity}:${e.event.data.action}`)).to.deep.equal(['campaign:create', 'campaign:create']);
  });

  it('refuses a scheduled campaign that could not run, ids of another company, and bad names', async () => {
    const w = world();
    expect(
      await code(w.create.execute({ actor: admin, campaign: { name: 'x', message1: 'Hi', chatappId: CONNECTION, scheduledAt: '2024-06-10 09:00' } })),
    ).to.equal('ERR_CAMPAIGN_NO_AUDIENCE');
    expect(
      await code(w.create.execute({ actor: admin, campaign: { name: 'x', contactListId: 1, chatappId: CONNECTION, scheduledAt: '2024-06-10 09:00' } })),
    ).to.equal('ERR_CAMPAIGN_NO_MESSAGE');
    expect(await code(w.create.execute({ actor: admin, campaign: { name: 'x', contactListId: 50 } }))).to.equal('ERR_NO_CONTACT_LIST_FOUND');
    expect(await code(w.create.execute({ actor: admin, campaign: { name: 'x', tagListId: 8 } }))).to.equal('ERR_NO_TAG_FOUND');
    expect(await code(w.create.execute({ actor: otherAdmin, campaign: { name: 'x', chatappId: CONNECTION } }))).to.equal('ERR_NO_CONNECTION_FOUND');
    expect(await code(w.create.execute({ actor: admin, campaign: { name: ' ' } }))).to.equal('ERR_CAMPAIGN_INVALID_NAME');
    expect(await code(w.create.execute({ actor: admin, campaign: { message1: 'no name' } }))).to.equal('ERR_CAMPAIGN_INVALID_NAME');
    expect(await code(w.create.execute({ actor: admin, campaign: { name: 'x', message3: 'a'.repeat(4097) } }))).to.equal('ERR_CAMPAIGN_MESSAGE_TOO_LONG');
    expect(await code(w.create.execute({ actor: operator, campaign: { name: 'x' } }))).to.equal('ERR_NO_PERMISSION');
    w.plan.disabled.add(ACME);
    expect(await code(w.create.execute({ actor: admin, campaign: { name: 'x' } }))).to.equal('ERR_PLAN_FEATURE_DISABLED');
    expect(await w.campaigns.all(ACME)).to.deep.equal([]);
  });

  it('edits only a campaign that never ran (as stored), scheduling or unscheduling it by its time', async () => {
    const w = world();
    w.addList(
      1,
      numbers(2).map((number) => ({ number })),
    );
    const c = await w.create.execute({ actor: admin, campaign: { name: 'Sale', message1: 'Hi', contactListId: 1, chatappId: CONNECTION } });
    expect((await w.update.execute({ actor: admin, campaignId: c.id, campaign: { scheduledAt: '2024-06-10 09:00' } })).status).to.equal('PROGRAMADA');
    expect(await w.update.execute({ actor: admin, campaignId: c.id, campaign: { scheduledAt: null, message2: 'Hello' } })).to.include({
      status: 'INATIVA',
      message2: 'Hello',
    });
    await w.run.execute({ actor: admin, campaignId: c.id });
    expect(await code(w.update.execute({ actor: admin, campaignId: c.id, campaign: { message1: 'changed' } }))).to.equal('ERR_CAMPAIGN_STATUS_CONFLICT');
    expect((await w.campaigns.findById(ACME, c.id))!.message1).to.equal('Hi');
    expect(await code(w.update.execute({ actor: otherAdmin, campaignId: c.id, campaign: { name: 'theirs' } }))).to.equal('ERR_NO_CAMPAIGN_FOUND');
  });

  it('runs by the stored status: start, then resume after a pause, restart after a cancel; one already running is a conflict', async () => {
    const w = world();
    w.addList(
      1,
      numbers(2).map((number) => ({ number })),
    );
    const c = await w.create.execute({ actor: admin, campaign: { name: 'Sale', message1: 'Hi', contactListId: 1, chatappId: CONNECTION } });
    const status = async () => (await w.campaigns.findById(ACME, c.id))!.status;
    await w.run.execute({ actor: admin, campaignId: c.id });
    expect(await status()).to.equal('EM_ANDAMENTO');
    await w.app.pause.execute({ actor: admin, campaignId: c.id });
    await w.run.execute({ actor: admin, campaignId: c.id });
    expect(await status()).to.equal('EM_ANDAMENTO');
    await w.app.cancel.execute({ actor: admin, campaignId: c.id });
    await w.run.execute({ actor: admin, campaignId: c.id });
    expect(await status()).to.equal('EM_ANDAMENTO');
    expect(w.recipients.snapshot(), 'materialised once').to.have.length(2);
    expect(await code(w.run.execute({ actor: admin, campaignId: c.id }))).to.equal('ERR_CAMPAIGN_STATUS_CONFLICT');
  });

  it('deletes any campaign but a running one, with its recipients and attachment', async () => {
    const w = world();
    w.addList(
      1,
      numbers(2).map((number) => ({ number })),
    );
    const c = await w.create.execute({ actor: admin, campaign: { name: 'Sale', message1: 'Hi', contactListId: 1, chatappId: CONNECTION } });
    const withMedia = await w.setMedia.execute({ actor: admin, campaignId: c.id, file: file('png-bytes') });
    await w.run.execute({ actor: admin, campaignId: c.id });
    expect(await code(w.remove.execute({ actor: admin, campaignId: c.id }))).to.equal('ERR_CAMPAIGN_STATUS_CONFLICT');
    await w.app.cancel.execute({ actor: admin, campaignId: c.id });
    expect(await code(w.remove.execute({ actor: otherAdmin, campaignId: c.id }))).to.equal('ERR_NO_CAMPAIGN_FOUND');
    await w.remove.execute({ actor: admin, campaignId: c.id });
    expect(await w.campaigns.findById(ACME, c.id)).to.equal(null);
    expect(w.recipients.snapshot()).to.deep.equal([]);
    expect(w.blobs.blobs.has(withMedia.mediaPath!)).to.equal(false);
    expect(w.events.at(-1)!.event.data).to.deep.equal({ action: 'delete', id: c.id });
  });

  it('keeps one attachment, replacing and removing its file, and refuses empty files', async () => {
    const w = world();
    const c = await w.create.execute({ actor: admin, campaign: { name: 'Sale', message1: 'Hi' } });
    const first = await w.setMedia.execute({ actor: admin, campaignId: c.id, file: file('one') });
    expect(first.mediaName).to.equal('flyer.png');
    const second = await w.setMedia.execute({ actor: admin, campaignId: c.id, file: file('two', 'menu.pdf', 'application/pdf') });
    expect([...w.blobs.blobs.keys()]).to.deep.equal([second.mediaPath]);
    expect((await w.campaigns.findById(ACME, c.id))!.media).to.deep.include({ name: 'menu.pdf', contentType: 'application/pdf', size: 3 });
    expect(await code(w.setMedia.execute({ actor: admin, campaignId: c.id, file: file('') }))).to.equal('ERR_EMPTY_FILE');
    expect(await code(w.setMedia.execute({ actor: admin, campaignId: c.id, file: undefined }))).to.equal('ERR_NO_FILE');
    expect((await w.removeMedia.execute({ actor: admin, campaignId: c.id })).mediaPath).to.equal(null);
    expect(w.blobs.blobs.size).to.equal(0);
  });

  it('lists 20 a page, searched by name without accents, and every one of the company only', async () => {
    const w = world();
    for (let i = 1; i <= 22; i++)
      await w.create.execute({ actor: admin, campaign: { name: i === 5 ? 'Promoção de Inverno' : `Campaign ${String(i).padStart(2, '0')}` } });
    await w.create.execute({ actor: otherAdmin, campaign: { name: 'Theirs' } });
    const page1 = await w.list.execute({ actor: admin });
    expect(page1).to.include({ count: 22, hasMore: true });
    expect(page1.records).to.have.length(20);
    expect((await w.list.execute({ actor: admin, pageNumber: 2 })).records).to.have.length(2);
    expect((await w.list.execute({ actor: admin, searchParam: 'PROMOCAO' })).records.map((r) => r.name)).to.deep.equal(['Promoção de Inverno']);
    expect(await w.listAll.execute({ actor: admin })).to.have.length(22);
  });

  it('saves settings all or nothing, answering every stored row', async () => {
    const w = world();
    const rows = await w.saveSettings.execute({
      actor: admin,
      settings: { messageInterval: 5, messageIntervalMax: 9, sabado: true, variables: [{ key: 'loja', value: 'Centro' }] },
    });
    expect(rows.map((r) => [r.key, r.value])).to.deep.include.members([
      ['messageInterval', '5'],
      ['messageIntervalMax', '9'],
      ['sabado', 'true'],
      ['variables', '[{"key":"loja","value":"Centro"}]'],
    ]);
    expect(await code(w.saveSettings.execute({ actor: admin, settings: { messageInterval: 7, capHourly: -1 } }))).to.equal('ERR_INVALID_CAMPAIGN_SETTING');
    expect(await code(w.saveSettings.execute({ actor: admin, settings: { colour: 'red' } }))).to.equal('ERR_INVALID_CAMPAIGN_SETTING');
    expect((await w.listSettings.execute({ actor: admin })).find((r) => r.key === 'messageInterval')!.value).to.equal('5');
    expect(await code(w.listSettings.execute({ actor: operator }))).to.equal('ERR_NO_PERMISSION');
  });
});
