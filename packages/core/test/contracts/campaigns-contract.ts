import { expect } from 'chai';
import type { Transaction } from '../../src/index.js';
import { campaignDefaults, type Campaign, type CampaignStatus, type NewCampaign } from '../../src/campaigns/campaign.js';
import { initialPacingState } from '../../src/campaigns/pacing.js';
import type {
  CampaignAudience,
  CampaignPacing,
  CampaignRecipients,
  Campaigns,
  CampaignSettingsStore,
  RecipientProgress,
  Suppressions,
} from '../../src/campaigns/ports.js';
import { progressOf, type CampaignRecipient, type NewRecipient } from '../../src/campaigns/recipient.js';

/** What a campaign points at and reads, written by each adapter's own means (rows for databases, maps in memory). */
export interface CampaignSeed {
  company(name: string): Promise<number>;
  connection(companyId: number): Promise<number>;
  user(companyId: number): Promise<number>;
  queue(companyId: number): Promise<number>;
  tag(companyId: number, name: string): Promise<number>;
  /** A contact list with these items (their ids in the same order). */
  contactList(companyId: number, items: readonly SeedListItem[]): Promise<{ id: number; itemIds: number[] }>;
  /** A CRM contact, reachable by its number's canonical form, carrying these tags. */
  contact(companyId: number, contact: SeedContact, tagIds?: readonly number[]): Promise<number>;
}

export interface SeedListItem {
  readonly name: string;
  readonly number: string;
  readonly canonicalNumber: string;
  readonly email?: string;
  readonly validity?: 'unknown' | 'valid' | 'invalid' | 'error';
  readonly variables?: Record<string, string>;
}

export interface SeedContact {
  readonly name: string;
  readonly number: string;
  readonly email?: string | null;
  readonly blocked?: boolean;
  readonly isGroup?: boolean;
}

export interface CampaignsFixture {
  readonly campaigns: Campaigns;
  readonly recipients: CampaignRecipients;
  readonly pacing: CampaignPacing;
  readonly suppressions: Suppressions;
  readonly settings: Pick<CampaignSettingsStore, 'rows' | 'save'>;
  readonly audience: CampaignAudience;
  readonly tx: Transaction;
  readonly seed: CampaignSeed;
  /** Whether a failed transaction leaves nothing behind (true for databases). */
  readonly rollsBack: boolean;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const page = (offset = 0, limit = 20) => ({ offset, limit });
const times = <T>(n: number, fn: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);
/** `count` distinct canonical Brazilian mobiles from `from` on. */
const mobiles = (count: number, from = 0) => Array.from({ length: count }, (_, i) => `55119${String(70_000_000 + from + i)}`);

export function campaignDraft(companyId: number, name: string, overrides: Partial<NewCampaign> = {}): NewCampaign {
  return { ...campaignDefaults(companyId, name, T0), message1: 'Olá {nome}', ...overrides };
}

export function recipientDraft(
  campaign: Pick<Campaign, 'id' | 'companyId' | 'chatappId'>,
  number: string,
  overrides: Partial<NewRecipient> = {},
): NewRecipient {
  return {
    companyId: campaign.companyId,
    campaignId: campaign.id,
    connectionId: campaign.chatappId!,
    number,
    name: `Name ${number}`,
    contactId: null,
    listItemId: null,
    variables: { nome: `Name ${number}` },
    variant: 1,
    body: `Olá ${number}`,
    confirmationBody: null,
    media: null,
    stage: 'message',
    state: 'pending',
    reason: null,
    dueAt: T0,
    claimedUntil: null,
    attempts: 0,
    messageId: null,
    sentAt: null,
    deliveredAt: null,
    readAt: null,
    confirmationRequestedAt: null,
    confirmedAt: null,
    awaitingUntil: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** One suite for every adapter of the campaign ports: campaigns, recipients, pacing, suppressions, settings rows, audience. */
export function describeCampaignsContract(name: string, make: () => Promise<CampaignsFixture>) {
  describe(`Campaigns contract: ${name}`, function () {
    this.timeout(60_000);
    let r: CampaignsFixture;
    let w: { c1: number; c2: number; conn1: number; conn1b: number; conn2: number };
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies, two connections in the first and one in the second. Called by each test body (databases run bodies in a unit of work). */
    async function given() {
      const c1 = await r.seed.company('One');
      const c2 = await r.seed.company('Two');
      w = { c1, c2, conn1: await r.seed.connection(c1), conn1b: await r.seed.connection(c1), conn2: await r.seed.connection(c2) };
    }
    const add = (fields: Partial<NewCampaign> = {}, companyId = w.c1) =>
      r.campaigns.add(campaignDraft(companyId, 'Campaign', { chatappId: companyId === w.c1 ? w.conn1 : w.conn2, ...fields }));
    /** The recipients of a campaign, by id. */
    const recipientsOf = async (c: Campaign) => (await r.recipients.list(c.companyId, c.id, page(0, 100_000))).rows;

    describe('campaigns', () => {
      it('stores every field and finds a campaign by id within its company only', async () => {
        await given();
        const list = await r.seed.contactList(w.c1, []);
        const draft = campaignDraft(w.c1, 'Lançamento', {
          message1: 'a',
          message2: 'b',
          message3: 'c',
          message4: 'd',
          message5: 'e',
          confirmationMessage1: 'q1',
          confirmationMessage2: 'q2',
          confirmationMessage3: 'q3',
          confirmationMessage4: 'q4',
          confirmationMessage5: 'q5',
          confirmation: true,
          status: 'PROGRAMADA',
          scheduledAt: at(60),
          completedAt: at(90),
          media: { path: 'company-1/flyer.png', name: 'flyer.png', contentType: 'image/png', size: 2048 },
          contactListId: list.id,
          tagListId: await r.seed.tag(w.c1, 'VIP'),
          chatappId: w.conn1,
          userId: await r.seed.user(w.c1),
          queueId: await r.seed.queue(w.c1),
          statusTicket: 'open',
          openTicket: 'enabled',
          materializedAt: at(61),
          failureReason: 'ERR_X',
          createdAt: at(1),
          updatedAt: at(2),
        });
        const added = await r.campaigns.add(draft);
        expect(added).to.deep.equal({ ...draft, id: added.id });
        expect(await r.campaigns.findById(w.c1, added.id)).to.deep.equal({ ...draft, id: added.id });
        expect(await r.campaigns.findById(w.c2, added.id)).to.equal(null);
        expect(await r.campaigns.findById(w.c1, added.id + 1000)).to.equal(null);
        const bare = await add();
        expect(await r.campaigns.findById(w.c1, bare.id)).to.deep.equal(bare);
        expect(bare.id).to.not.equal(added.id);
      });

      it('update saves every field but the status, and only within the company', async () => {
        await given();
        const c = await add({ status: 'PROGRAMADA', scheduledAt: at(10) });
        const changed: Campaign = {
          ...c,
          name: 'Renamed',
          message2: 'two',
          confirmation: true,
          confirmationMessage1: 'ok?',
          status: 'FINALIZADA',
          scheduledAt: null,
          media: { path: 'k', name: 'n.pdf', contentType: 'application/pdf', size: 7 },
          chatappId: w.conn1b,
          statusTicket: 'pending',
          updatedAt: at(5),
        };
        await r.campaigns.update(changed);
        expect(await r.campaigns.findById(w.c1, c.id)).to.deep.equal({ ...changed, status: 'PROGRAMADA' });
        await r.campaigns.update({ ...changed, media: null, name: 'Back' });
        expect(await r.campaigns.findById(w.c1, c.id)).to.deep.include({ media: null, name: 'Back' });
        await r.campaigns.update({ ...changed, companyId: w.c2, name: 'Hijack' });
        expect((await r.campaigns.findById(w.c1, c.id))?.name).to.equal('Back');
        expect(await r.campaigns.findById(w.c2, c.id)).to.equal(null);
      });

      it('transition moves the status only from the given ones, with the patch, within the company', async () => {
        await given();
        const c = await add({ status: 'EM_ANDAMENTO' });
        expect(await r.campaigns.transition(w.c1, c.id, ['INATIVA', 'PROGRAMADA'], 'EM_ANDAMENTO', { updatedAt: at(1) })).to.equal(false);
        expect(await r.campaigns.transition(w.c2, c.id, ['EM_ANDAMENTO'], 'PAUSADA')).to.equal(false);
        expect(await r.campaigns.findById(w.c1, c.id)).to.deep.equal(c);
        expect(await r.campaigns.transition(w.c1, c.id, ['PROGRAMADA', 'EM_ANDAMENTO'], 'FINALIZADA', { completedAt: at(3), updatedAt: at(3) })).to.equal(true);
        expect(await r.campaigns.findById(w.c1, c.id)).to.deep.equal({ ...c, status: 'FINALIZADA', completedAt: at(3), updatedAt: at(3) });
        const failing = await add({ status: 'PROGRAMADA' });
        expect(
          await r.campaigns.transition(w.c1, failing.id, ['PROGRAMADA'], 'FALHOU', { failureReason: 'ERR_CAMPAIGN_NO_CONNECTION', materializedAt: at(4) }),
        ).to.equal(true);
        expect(await r.campaigns.findById(w.c1, failing.id)).to.deep.equal({
          ...failing,
          status: 'FALHOU',
          failureReason: 'ERR_CAMPAIGN_NO_CONNECTION',
          materializedAt: at(4),
        });
        expect(await r.campaigns.transition(w.c1, failing.id, [], 'EM_ANDAMENTO')).to.equal(false);
        expect(await r.campaigns.transition(w.c1, failing.id + 1000, ['FALHOU'], 'EM_ANDAMENTO')).to.equal(false);
      });

      it('of concurrent transitions from one status exactly one applies, also with writes in their transactions', async () => {
        await given();
        const c = await add({ status: 'PROGRAMADA' });
        const moved = await times(8, () => r.campaigns.transition(w.c1, c.id, ['PROGRAMADA'], 'EM_ANDAMENTO', { updatedAt: at(1) }));
        expect(moved.filter(Boolean)).to.have.length(1);
        expect((await r.campaigns.findById(w.c1, c.id))?.status).to.equal('EM_ANDAMENTO');
        // A start: the move and the recipients in one transaction; one instance does both, the others neither.
        const d = await add({ status: 'PROGRAMADA' });
        const started = await times(6, (i) =>
          r.tx.run(async () => {
            const ok = await r.campaigns.transition(w.c1, d.id, ['INATIVA', 'PROGRAMADA'], 'EM_ANDAMENTO', { materializedAt: at(2) });
            if (ok) await r.recipients.addMany(mobiles(3, i * 10).map((n) => recipientDraft(d, n)));
            return ok;
          }),
        );
        expect(started.filter(Boolean)).to.have.length(1);
        expect((await r.recipients.progress(w.c1, d.id)).total).to.equal(3);
      });

      it('finds due scheduled campaigns of every company however late, oldest first, the unmaterialised running ones and those running on a connection', async () => {
        await given();
        const late = await add({ status: 'PROGRAMADA', scheduledAt: at(-600) });
        const now = await add({ status: 'PROGRAMADA', scheduledAt: at(0) });
        const elsewhere = await add({ status: 'PROGRAMADA', scheduledAt: at(-30) }, w.c2);
        await add({ status: 'PROGRAMADA', scheduledAt: at(1) });
        await add({ status: 'INATIVA', scheduledAt: at(-60) });
        const runningBefore = await add({ status: 'EM_ANDAMENTO', scheduledAt: at(-60), materializedAt: at(-60) });
        expect(ids(await r.campaigns.dueScheduled(at(0), 10))).to.deep.equal([late.id, elsewhere.id, now.id]);
        expect(ids(await r.campaigns.dueScheduled(at(0), 2))).to.deep.equal([late.id, elsewhere.id]);

        const a = await add({ status: 'EM_ANDAMENTO' });
        const b = await add({ status: 'EM_ANDAMENTO' }, w.c2);
        const onB = await add({ status: 'EM_ANDAMENTO', chatappId: w.conn1b, materializedAt: at(0) });
        await add({ status: 'PAUSADA', materializedAt: null });
        expect(ids(await r.campaigns.runningUnmaterialised(10))).to.deep.equal([a.id, b.id]);
        expect(ids(await r.campaigns.runningUnmaterialised(1))).to.deep.equal([a.id]);
        expect(ids(await r.campaigns.runningOnConnection(w.conn1))).to.deep.equal([runningBefore.id, a.id]);
        expect(ids(await r.campaigns.runningOnConnection(w.conn1b))).to.deep.equal([onB.id]);
        expect(ids(await r.campaigns.runningOnConnection(w.conn2))).to.deep.equal([b.id]);
      });

      it("pages a company's campaigns by status, newest schedule first (unscheduled last), searching the name without case or accents", async () => {
        await given();
        const promo = await add({ name: 'Promoção de Março', status: 'PROGRAMADA', scheduledAt: at(10) });
        const draft = await add({ name: 'Rascunho', status: 'INATIVA' });
        const older = await add({ name: 'Natal', status: 'INATIVA', scheduledAt: at(-100) });
        const newer = await add({ name: 'Páscoa', status: 'INATIVA', scheduledAt: at(100) });
        const running = await add({ name: 'PROMOCAO relâmpago', status: 'EM_ANDAMENTO' });
        const done = await add({ name: 'Old 50% off', status: 'FINALIZADA', scheduledAt: at(-1000) });
        await add({ name: 'Promoção alheia' }, w.c2);
        const all = await r.campaigns.page(w.c1, page());
        expect(all.count).to.equal(6);
        expect(ids(all.rows)).to.deep.equal([running.id, done.id, newer.id, older.id, draft.id, promo.id]);
        const second = await r.campaigns.page(w.c1, page(2, 2));
        expect(second.count).to.equal(6);
        expect(ids(second.rows)).to.deep.equal([newer.id, older.id]);
        const found = await r.campaigns.page(w.c1, { search: 'promocao', ...page() });
        expect(found).to.deep.include({ count: 2 });
        expect(ids(found.rows)).to.deep.equal([running.id, promo.id]);
        expect(ids((await r.campaigns.page(w.c1, { search: 'MARÇO', ...page() })).rows)).to.deep.equal([promo.id]);
        expect(ids((await r.campaigns.page(w.c1, { search: 'pascoa', ...page() })).rows)).to.deep.equal([newer.id]);
        expect((await r.campaigns.page(w.c1, { search: '50%', ...page() })).count).to.equal(1);
        expect((await r.campaigns.page(w.c1, { search: '0%', ...page() })).count).to.equal(1);
        expect((await r.campaigns.page(w.c1, { search: '_', ...page() })).count).to.equal(0);
        expect((await r.campaigns.page(w.c1, { search: '   ', ...page() })).count).to.equal(6);
        expect(await r.campaigns.page(w.c2, { search: 'relampago', ...page() })).to.deep.equal({ rows: [], count: 0 });
      });

      it('answers the status for a send, within the company only', async () => {
        await given();
        const c = await add({ status: 'EM_ANDAMENTO' });
        expect(await r.tx.run(() => r.campaigns.statusForSend(w.c1, c.id))).to.equal('EM_ANDAMENTO');
        expect(await r.campaigns.statusForSend(w.c2, c.id)).to.equal(null);
      });

      it('lists every campaign of the company by name', async () => {
        await given();
        const z = await add({ name: 'Zebra' });
        const agua = await add({ name: 'Água' });
        const b = await add({ name: 'beta' });
        await add({ name: 'Alheia' }, w.c2);
        expect(ids(await r.campaigns.all(w.c1))).to.deep.equal([agua.id, b.id, z.id]);
      });

      it('removes a campaign with its recipients, within the company only', async () => {
        await given();
        const c = await add({ status: 'EM_ANDAMENTO' });
        const kept = await add({ status: 'EM_ANDAMENTO' });
        await r.recipients.addMany([recipientDraft(c, mobiles(1)[0]!), recipientDraft(kept, mobiles(1)[0]!)]);
        const [recipient] = await recipientsOf(c);
        expect(await r.campaigns.remove(w.c2, c.id)).to.equal(false);
        expect(await r.campaigns.findById(w.c1, c.id)).to.not.equal(null);
        expect(await r.campaigns.remove(w.c1, c.id)).to.equal(true);
        expect(await r.campaigns.findById(w.c1, c.id)).to.equal(null);
        expect(await r.recipients.findById(w.c1, recipient!.id)).to.equal(null);
        expect((await r.recipients.progress(w.c1, c.id)).total).to.equal(0);
        expect((await r.recipients.progress(w.c1, kept.id)).total).to.equal(1);
        expect(await r.campaigns.remove(w.c1, c.id)).to.equal(false);
      });

      it('finds the campaigns that will still read a contact list: not materialised, not ended', async () => {
        await given();
        const list = (await r.seed.contactList(w.c1, [])).id;
        const other = (await r.seed.contactList(w.c1, [])).id;
        const draft = await add({ contactListId: list, status: 'INATIVA' });
        const scheduled = await add({ contactListId: list, status: 'PROGRAMADA', scheduledAt: at(5) });
        const starting = await add({ contactListId: list, status: 'EM_ANDAMENTO' });
        await add({ contactListId: list, status: 'EM_ANDAMENTO', materializedAt: at(0) });
        for (const status of ['PAUSADA', 'CANCELADA', 'FINALIZADA', 'FALHOU'] as CampaignStatus[]) await add({ contactListId: list, status });
        await add({ contactListId: other, status: 'INATIVA' });
        expect(ids(await r.campaigns.pendingOnContactList(w.c1, list))).to.deep.equal([draft.id, scheduled.id, starting.id]);
        expect(await r.campaigns.pendingOnContactList(w.c2, list)).to.deep.equal([]);
      });
    });

    describe('recipients', () => {
      it('adds many at once, leaving a number already in the campaign as it is, and answers how many were added', async () => {
        await given();
        const c = await add({ status: 'EM_ANDAMENTO' });
        const d = await add({ status: 'EM_ANDAMENTO' });
        const [n1, n2, n3] = mobiles(3);
        expect(await r.recipients.addMany([])).to.equal(0);
        expect(
          await r.recipients.addMany([recipientDraft(c, n1!, { name: 'First' }), recipientDraft(c, n2!), recipientDraft(c, n1!, { name: 'Twin' })]),
        ).to.equal(2);
        expect(await r.recipients.addMany([recipientDraft(c, n1!, { name: 'Again' }), recipientDraft(c, n3!), recipientDraft(d, n1!)])).to.equal(2);
        const rows = await recipientsOf(c);
        expect(rows.map((x) => [x.number, x.name])).to.deep.equal([
          [n1, 'First'],
          [n2, `Name ${n2}`],
          [n3, `Name ${n3}`],
        ]);
        expect((await recipientsOf(d)).map((x) => x.number)).to.deep.equal([n1]);
      });

      it('stores every field of a recipient and finds it by id (within the company), message id and number', async () => {
        await given();
        const c = await add({ status: 'EM_ANDAMENTO' });
        const newer = await add({ status: 'FINALIZADA' });
        const onB = await add({ status: 'EM_ANDAMENTO', chatappId: w.conn1b });
        const draft = recipientDraft(c, '5511987654321', {
          name: 'Ana Júlia',
          contactId: 42,
          listItemId: 7,
          variables: { nome: 'Ana Júlia', cupom: 'A10', vazio: '' },
          variant: 3,
          body: 'Olá Ana Júlia',
          confirmationBody: 'Quer receber?',
          media: { path: 'company-1/a.jpg', name: 'a.jpg', contentType: 'image/jpeg', size: 99 },
          stage: 'confirmation',
          state: 'sent',
          reason: 'retry later',
          dueAt: at(5),
          claimedUntil: at(6),
          attempts: 2,
          messageId: 'msg-uuid-1',
          sentAt: at(7),
          deliveredAt: at(8),
          readAt: at(9),
          confirmationRequestedAt: at(7),
          confirmedAt: null,
          awaitingUntil: at(60),
          createdAt: at(1),
          updatedAt: at(9),
        });
        await r.recipients.addMany([draft, recipientDraft(newer, draft.number), recipientDraft(onB, draft.number)]);
        const [stored] = await recipientsOf(c);
        expect(stored).to.deep.equal({ ...draft, id: stored!.id });
        expect(await r.recipients.findById(w.c1, stored!.id)).to.deep.equal(stored);
        expect(await r.recipients.findById(w.c2, stored!.id)).to.equal(null);
        expect(await r.recipients.findByMessageId('msg-uuid-1')).to.deep.equal(stored);
        expect(await r.recipients.findByMessageId('unknown')).to.equal(null);
        const byNumber = await r.recipients.findByNumber(w.c1, w.conn1, draft.number);
        expect(byNumber.map((x) => x.campaignId)).to.deep.equal([newer.id, c.id]);
        expect(await r.recipients.findByNumber(w.c2, w.conn1, draft.number)).to.deep.equal([]);
        expect(await r.recipients.findByNumber(w.c1, w.conn1, '5511900000000')).to.deep.equal([]);
      });

      it('update saves every field, within the company only; release ends a claim and may move the due time', async () => {
        await given();
        const c = await add({ status: 'EM_ANDAMENTO' });
        await r.recipients.addMany([recipientDraft(c, mobiles(1)[0]!)]);
        const [x] = await recipientsOf(c);
        const changed: CampaignRecipient = {
          ...x!,
          state: 'delivered',
          stage: 'confirmation',
          reason: null,
          attempts: 1,
          messageId: 'm-2',
          sentAt: at(1),
          deliveredAt: at(2),
          confirmationRequestedAt: at(1),
          awaitingUntil: at(30),
          variables: { nome: 'Zé' },
          body: 'Oi Zé',
          variant: 2,
          media: { path: 'p', name: 'n', contentType: 'text/plain', size: 1 },
          claimedUntil: at(3),
          dueAt: at(4),
          updatedAt: at(2),
        };
        await r.recipients.update(changed);
        expect(await r.recipients.findById(w.c1, x!.id)).to.deep.equal(changed);
        await r.recipients.update({ ...changed, companyId: w.c2, state: 'failed' });
        expect((await r.recipients.findById(w.c1, x!.id))?.state).to.equal('delivered');
        await r.recipients.release(x!.id);
        expect(await r.recipients.findById(w.c1, x!.id)).to.deep.equal({ ...changed, claimedUntil: null });
        await r.recipients.update({ ...changed, claimedUntil: at(3) });
        await r.recipients.release(x!.id, at(50));
        expect(await r.recipients.findById(w.c1, x!.id)).to.deep.equal({ ...changed, claimedUntil: null, dueAt: at(50) });
      });

      /** One report on its own, as a batch of one. */
      const advanceOne = async (change: RecipientProgress) => (await r.recipients.advanceByMessages([change]))[0] ?? null;

      it('advances a recipient by its message only forward, whatever order the reports come in', async () => {
        await given();
        const c = await add({ status: 'EM_ANDAMENTO' });
        const [n1, n2, n3] = mobiles(3);
        await r.recipients.addMany([
          recipientDraft(c, n1!, { state: 'sent', messageId: 'm-1', sentAt: at(1) }),
          recipientDraft(c, n2!, { state: 'sent', messageId: 'm-2', sentAt: at(1) }),
          recipientDraft(c, n3!, { state: 'pending' }),
        ]);
        // The read report handled first: the late delivery report changes nothing.
        expect(await advanceOne({ messageId: 'm-1', state: 'read', at: at(3) })).to.include({ state: 'read' });
        expect(await advanceOne({ messageId: 'm-1', state: 'delivered', at: at(4) })).to.equal(null);
        const read = (await r.recipients.findByMessageId('m-1'))!;
        expect(read).to.deep.include({ state: 'read', deliveredAt: at(3), readAt: at(3) });
        expect((await advanceOne({ messageId: 'm-2', state: 'delivered', at: at(2) }))!.deliveredAt).to.deep.equal(at(2));
        expect(await advanceOne({ messageId: 'm-2', state: 'read', at: at(5) })).to.deep.include({ state: 'read', deliveredAt: at(2), readAt: at(5) });
        expect(await advanceOne({ messageId: 'm-2', state: 'failed', at: at(6), reason: 'ERR_X' })).to.deep.include({ state: 'failed', reason: 'ERR_X' });
        expect(await advanceOne({ messageId: 'm-2', state: 'read', at: at(7) }), 'failed is final').to.equal(null);
        expect(await advanceOne({ messageId: 'unknown', state: 'read', at: at(7) })).to.equal(null);
        // Concurrent delivery and read reports of one message: it ends read.
        await r.recipients.addMany([recipientDraft(c, mobiles(1, 50)[0]!, { state: 'sent', messageId: 'm-4', sentAt: at(1) })]);
        await Promise.all([
          r.tx.run(() => advanceOne({ messageId: 'm-4', state: 'delivered', at: at(2) })),
          r.tx.run(() => advanceOne({ messageId: 'm-4', state: 'read', at: at(2) })),
        ]);
        expect((await r.recipients.findByMessageId('m-4'))!.state).to.equal('read');
        expect((await r.recipients.findByNumber(w.c1, w.conn1, n3!))[0]!.state, 'a pending one is not touched').to.equal('pending');
      });

      it("takes a batch of reports in one call: a message's reports in the order given, one answer per report", async () => {
        await given();
        const c = await add({ status: 'EM_ANDAMENTO' });
        const [n1, n2, n3] = mobiles(3);
        await r.recipients.addMany([
          recipientDraft(c, n1!, { state: 'sent', messageId: 'b-1', sentAt: at(1) }),
          recipientDraft(c, n2!, { state: 'sent', messageId: 'b-2', sentAt: at(1) }),
          recipientDraft(c, n3!, { state: 'sent', messageId: 'b-3', sentAt: at(1) }),
        ]);
        const answers = await r.recipients.advanceByMessages([
          { messageId: 'b-1', state: 'delivered', at: at(2) },
          { messageId: 'b-2', state: 'read', at: at(2) },
          { messageId: 'b-1', state: 'read', at: at(3) },
          { messageId: 'b-2', state: 'delivered', at: at(3) },
          { messageId: 'b-3', state: 'failed', at: at(2), reason: 'ERR_X' },
          { messageId: 'b-3', state: 'read', at: at(3) },
          { messageId: 'unknown', state: 'read', at: at(3) },
        ]);
        expect(answers.map((x) => x && x.state)).to.deep.equal(['delivered', 'read', 'read', null, 'failed', null, null]);
        expect(answers[2]).to.deep.include({ messageId: 'b-1', deliveredAt: at(2), readAt: at(3) });
        expect(answers[1]).to.deep.include({ messageId: 'b-2', deliveredAt: at(2), readAt: at(2) });
        expect(answers[4]).to.deep.include({ messageId: 'b-3', reason: 'ERR_X', awaitingUntil: null });
        expect(await r.recipients.findByMessageId('b-1')).to.deep.equal(answers[2]);
        expect(await r.recipients.advanceByMessages([])).to.deep.equal([]);
      });

      it('claims the due pending recipients of running campaigns on the connection, oldest campaign first, each until its claim lapses', async () => {
        await given();
        const first = await add({ status: 'EM_ANDAMENTO' });
        const second = await add({ status: 'EM_ANDAMENTO' });
        const paused = await add({ status: 'PAUSADA' });
        const onB = await add({ status: 'EM_ANDAMENTO', chatappId: w.conn1b });
        const [a, b, c, d, e, f] = mobiles(6);
        await r.recipients.addMany([
          recipientDraft(second, a!),
          recipientDraft(first, b!, { dueAt: at(5) }),
          recipientDraft(first, c!),
          recipientDraft(first, d!, { state: 'sent' }),
          recipientDraft(paused, e!),
          recipientDraft(onB, f!),
        ]);
        const claim = (now: number, until: number, conn = w.conn1) => r.recipients.claimNext(conn, at(now), at(until));
        const one = await claim(0, 2);
        expect(one).to.deep.include({ campaignId: first.id, number: c, claimedUntil: at(2) });
        expect((await r.recipients.findById(w.c1, one!.id))?.claimedUntil).to.deep.equal(at(2));
        expect(await claim(0, 2)).to.deep.include({ campaignId: second.id, number: a });
        expect(await claim(1, 3)).to.equal(null);
        // The first claim lapsed at 2: taken again.
        expect(await claim(2, 4)).to.deep.include({ id: one!.id, claimedUntil: at(4) });
        await r.recipients.release(one!.id);
        expect(await claim(2, 10)).to.deep.include({ id: one!.id });
        // The second claim lapsed at 2 as well; the last pending one is due at 5.
        expect(await claim(4, 10)).to.deep.include({ campaignId: second.id, number: a });
        expect(await claim(4, 10)).to.equal(null);
        expect(await claim(5, 10)).to.deep.include({ campaignId: first.id, number: b });
        expect(await claim(5, 10, w.conn1b)).to.deep.include({ campaignId: onB.id, number: f });
        expect(await claim(5, 10, w.conn2)).to.equal(null);
        await r.campaigns.transition(w.c1, paused.id, ['PAUSADA'], 'EM_ANDAMENTO');
        expect(await claim(5, 10)).to.deep.include({ campaignId: paused.id, number: e });
        expect(await claim(100, 200)).to.not.equal(null);
      });

      it('concurrent claims never take the same recipient', async () => {
        await given();
        const c = await add({ status: 'EM_ANDAMENTO' });
        await r.recipients.addMany(mobiles(30).map((n) => recipientDraft(c, n)));
        const claimed = await times(45, () =>
          r.tx.run(async () => {
            const got = await r.recipients.claimNext(w.conn1, at(0), at(10));
            if (got) await r.recipients.update({ ...got, state: 'sent', sentAt: at(0), claimedUntil: null });
            return got?.id ?? null;
          }),
        );
        const taken = claimed.filter((id): id is number => id !== null);
        expect(taken).to.have.length(30);
        expect(new Set(taken).size).to.equal(30);
        expect(await r.recipients.progress(w.c1, c.id)).to.deep.include({ pending: 0, sent: 30 });
      });

      it('adds 10,000 recipients at once', async () => {
        await given();
        const c = await add({ status: 'EM_ANDAMENTO' });
        const many = mobiles(10_000).map((n, i) => recipientDraft(c, n, { variables: { nome: `N${i}`, linha: String(i) } }));
        expect(await r.recipients.addMany(many)).to.equal(10_000);
        expect(await r.recipients.addMany(many.slice(9_990).concat(mobiles(5, 20_000).map((n) => recipientDraft(c, n))))).to.equal(5);
        const last = await r.recipients.list(w.c1, c.id, page(10_004, 10));
        expect(last.count).to.equal(10_005);
        expect(last.rows.map((x) => x.number)).to.deep.equal([mobiles(1, 20_004)[0]]);
        const sample = await r.recipients.list(w.c1, c.id, page(1234, 1));
        expect(sample.rows[0]).to.deep.include({ number: mobiles(1, 1234)[0], variables: { nome: 'N1234', linha: '1234' } });
      });

      it('counts progress per state and reason, with the confirmation figures, as progressOf defines them', async () => {
        await given();
        const c = await add({ status: 'EM_ANDAMENTO', confirmation: true });
        const n = mobiles(10);
        const drafts = [
          recipientDraft(c, n[0]!),
          recipientDraft(c, n[1]!, { stage: 'confirmation', state: 'sent', confirmationRequestedAt: at(1), awaitingUntil: at(60) }),
          recipientDraft(c, n[2]!, { stage: 'confirmation', state: 'read', confirmationRequestedAt: at(1), awaitingUntil: at(60) }),
          recipientDraft(c, n[3]!, { stage: 'message', state: 'delivered', confirmationRequestedAt: at(1), confirmedAt: at(2) }),
          recipientDraft(c, n[4]!, { state: 'failed', reason: 'not-on-network' }),
          recipientDraft(c, n[5]!, { state: 'failed', reason: 'not-on-network' }),
          recipientDraft(c, n[6]!, { state: 'failed', reason: null }),
          recipientDraft(c, n[7]!, { state: 'skipped', reason: 'blocked' }),
          recipientDraft(c, n[8]!, { state: 'skipped', reason: 'no-confirmation', confirmationRequestedAt: at(1) }),
          recipientDraft(c, n[9]!, { state: 'sent' }),
        ];
        await r.recipients.addMany(drafts);
        const other = await add({ status: 'EM_ANDAMENTO' });
        await r.recipients.addMany([recipientDraft(other, n[0]!, { state: 'failed', reason: 'x' })]);
        const progress = await r.recipients.progress(w.c1, c.id);
        expect(progress).to.deep.equal(progressOf(await recipientsOf(c)));
        expect(progress).to.deep.equal({
          total: 10,
          pending: 1,
          sent: 2,
          delivered: 1,
          read: 1,
          failed: 3,
          skipped: 2,
          awaitingConfirmation: 2,
          confirmationRequested: 4,
          confirmed: 1,
          failedByReason: { 'not-on-network': 2, unknown: 1 },
          skippedByReason: { blocked: 1, 'no-confirmation': 1 },
        });
        expect(await r.recipients.progress(w.c2, c.id)).to.deep.equal(progressOf([]));
      });

      it('knows whether a campaign has pending recipients and when the connection has one due next', async () => {
        await given();
        const c = await add({ status: 'EM_ANDAMENTO' });
        const paused = await add({ status: 'PAUSADA' });
        expect(await r.recipients.hasPending(c.id)).to.equal(false);
        expect(await r.recipients.nextDue(w.conn1)).to.equal(null);
        const [a, b, d, e] = mobiles(4);
        await r.recipients.addMany([
          recipientDraft(c, a!, { dueAt: at(10) }),
          recipientDraft(c, b!, { dueAt: at(2), claimedUntil: at(20) }),
          recipientDraft(c, d!, { dueAt: at(1), state: 'sent' }),
          recipientDraft(paused, e!, { dueAt: at(0) }),
        ]);
        expect(await r.recipients.hasPending(c.id)).to.equal(true);
        expect(await r.recipients.hasPending(paused.id)).to.equal(true);
        expect(await r.recipients.nextDue(w.conn1)).to.deep.equal(at(10));
        expect(await r.recipients.nextDue(w.conn1b)).to.equal(null);
        const [pending] = (await r.recipients.list(w.c1, c.id, { state: 'pending', ...page(0, 1) })).rows;
        await r.recipients.update({ ...pending!, state: 'sent' });
        expect(await r.recipients.nextDue(w.conn1)).to.deep.equal(at(20));
        const [claimed] = (await r.recipients.list(w.c1, c.id, { state: 'pending', ...page() })).rows;
        await r.recipients.update({ ...claimed!, state: 'failed' });
        expect(await r.recipients.hasPending(c.id)).to.equal(false);
        expect(await r.recipients.nextDue(w.conn1)).to.equal(null);
      });

      it('counts the questions still waiting, finds the next to expire, and expires the unanswered ones', async () => {
        await given();
        const c = await add({ status: 'EM_ANDAMENTO', confirmation: true });
        const other = await add({ status: 'EM_ANDAMENTO', confirmation: true });
        const n = mobiles(6);
        const asked = (awaitingUntil: Date | null, state: 'sent' | 'delivered' | 'read' = 'sent') => ({
          stage: 'confirmation' as const,
          state,
          confirmationRequestedAt: at(0),
          awaitingUntil,
        });
        await r.recipients.addMany([
          recipientDraft(c, n[0]!, asked(at(10))),
          recipientDraft(c, n[1]!, asked(at(20), 'read')),
          recipientDraft(c, n[2]!, asked(at(5), 'delivered')),
          recipientDraft(c, n[3]!, asked(null)),
          recipientDraft(c, n[4]!, { stage: 'confirmation', state: 'pending', awaitingUntil: at(1) }),
          recipientDraft(c, n[5]!, { stage: 'message', state: 'sent', awaitingUntil: at(30) }),
        ]);
        await r.recipients.addMany([recipientDraft(other, n[0]!, asked(at(1)))]);
        expect(await r.recipients.countAwaiting(c.id, at(0))).to.equal(3);
        expect(await r.recipients.countAwaiting(c.id, at(10))).to.equal(1);
        expect(await r.recipients.nextAwaitingExpiry(c.id, at(0))).to.deep.equal(at(5));
        expect(await r.recipients.nextAwaitingExpiry(c.id, at(5))).to.deep.equal(at(10));
        expect(await r.recipients.nextAwaitingExpiry(c.id, at(20))).to.equal(null);
        expect(await r.recipients.expireAwaiting(c.id, at(10))).to.equal(3);
        const byNumber = new Map((await recipientsOf(c)).map((x) => [x.number, x]));
        for (const expired of [n[0], n[2], n[3]]) {
          expect(byNumber.get(expired!)).to.deep.include({ state: 'skipped', reason: 'no-confirmation', awaitingUntil: null, updatedAt: at(10) });
        }
        expect(byNumber.get(n[1]!)).to.deep.include({ state: 'read', awaitingUntil: at(20) });
        expect(byNumber.get(n[4]!)).to.deep.include({ state: 'pending' });
        expect(byNumber.get(n[5]!)).to.deep.include({ state: 'sent' });
        expect(await r.recipients.countAwaiting(other.id, at(0))).to.equal(1);
        expect(await r.recipients.expireAwaiting(c.id, at(10))).to.equal(0);
      });

      it("pages one campaign's recipients by id, optionally in one state, within the company", async () => {
        await given();
        const c = await add({ status: 'EM_ANDAMENTO' });
        const n = mobiles(5);
        await r.recipients.addMany(n.map((x, i) => recipientDraft(c, x, { state: i % 2 ? 'sent' : 'pending' })));
        const all = await r.recipients.list(w.c1, c.id, page());
        expect(all.count).to.equal(5);
        expect(all.rows.map((x) => x.number)).to.deep.equal(n);
        expect(ids(all.rows)).to.deep.equal([...ids(all.rows)].sort((a, b) => a - b));
        const sent = await r.recipients.list(w.c1, c.id, { state: 'sent', ...page(1, 5) });
        expect(sent.count).to.equal(2);
        expect(sent.rows.map((x) => x.number)).to.deep.equal([n[3]]);
        expect((await r.recipients.list(w.c1, c.id, { state: 'failed', ...page() })).count).to.equal(0);
        expect(await r.recipients.list(w.c2, c.id, page())).to.deep.equal({ rows: [], count: 0 });
      });
    });

    describe('pacing', () => {
      it("keeps each connection's state (the initial one before any) and its sends, forgetting those older than a day", async () => {
        await given();
        expect(await r.pacing.get(w.conn1)).to.deep.equal(initialPacingState(w.conn1));
        const state = { connectionId: w.conn1, lastSentAt: at(1), nextGapMs: 25_000, streak: 4, consecutiveErrors: 2, backoffUntil: at(30) };
        await r.pacing.save(state);
        await r.pacing.save({ ...initialPacingState(w.conn1b), streak: 9 });
        expect(await r.pacing.get(w.conn1)).to.deep.equal(state);
        await r.pacing.save({ ...state, streak: 0, backoffUntil: null, lastSentAt: at(2) });
        expect(await r.pacing.get(w.conn1)).to.deep.equal({ ...state, streak: 0, backoffUntil: null, lastSentAt: at(2) });
        expect((await r.pacing.get(w.conn1b)).streak).to.equal(9);

        await r.pacing.recordSend(w.conn1, at(0));
        await r.pacing.recordSend(w.conn1, at(10));
        await r.pacing.recordSend(w.conn1, at(10));
        await r.pacing.recordSend(w.conn1b, at(5));
        expect(await r.pacing.sendsSince(w.conn1, at(0))).to.deep.equal([at(0), at(10), at(10)]);
        expect(await r.pacing.sendsSince(w.conn1, at(1))).to.deep.equal([at(10), at(10)]);
        expect(await r.pacing.sendsSince(w.conn1b, at(0))).to.deep.equal([at(5)]);
        expect(await r.pacing.sendsSince(w.conn2, at(0))).to.deep.equal([]);
        // A send 26 hours later: the first ones no cap counts any more are gone.
        await r.pacing.recordSend(w.conn1, at(26 * 60));
        expect(await r.pacing.sendsSince(w.conn1, at(-60))).to.deep.equal([at(26 * 60)]);
        expect(await r.pacing.sendsSince(w.conn1b, at(0))).to.deep.equal([at(5)]);
      });

      it('keeps a wake-up written after a dispatcher run started when the run stores its own next run', async () => {
        await given();
        await r.pacing.setNextRun(w.c1, w.conn1, at(0));
        // A run started at 1 and decided "nothing to do" (null): nobody woke the connection meanwhile.
        await r.pacing.setNextRun(w.c1, w.conn1, null, at(1));
        expect(await r.pacing.dueConnections(at(100), 10)).to.deep.equal([]);
        await r.pacing.setNextRun(w.c1, w.conn1, at(1));
        // A start woke it at 3 while a run that began at 2 was deciding: the wake-up stays.
        await r.pacing.setNextRun(w.c1, w.conn1, at(3));
        await r.pacing.setNextRun(w.c1, w.conn1, null, at(2));
        expect(await r.pacing.dueConnections(at(3), 10)).to.deep.equal([{ companyId: w.c1, connectionId: w.conn1 }]);
        await r.pacing.setNextRun(w.c1, w.conn1, at(60), at(4));
        expect(await r.pacing.dueConnections(at(10), 10)).to.deep.equal([]);
      });

      it('answers the connections whose next run is due, oldest first, and forgets a cleared one', async () => {
        await given();
        expect(await r.pacing.dueConnections(at(0), 10)).to.deep.equal([]);
        await r.pacing.setNextRun(w.c1, w.conn1, at(5));
        await r.pacing.setNextRun(w.c2, w.conn2, at(-5));
        await r.pacing.setNextRun(w.c1, w.conn1b, at(20));
        expect(await r.pacing.dueConnections(at(5), 10)).to.deep.equal([
          { companyId: w.c2, connectionId: w.conn2 },
          { companyId: w.c1, connectionId: w.conn1 },
        ]);
        expect(await r.pacing.dueConnections(at(5), 1)).to.deep.equal([{ companyId: w.c2, connectionId: w.conn2 }]);
        expect(await r.pacing.dueConnections(at(4), 10)).to.deep.equal([{ companyId: w.c2, connectionId: w.conn2 }]);
        await r.pacing.setNextRun(w.c2, w.conn2, null);
        await r.pacing.setNextRun(w.c1, w.conn1b, at(1));
        expect(await r.pacing.dueConnections(at(5), 10)).to.deep.equal([
          { companyId: w.c1, connectionId: w.conn1b },
          { companyId: w.c1, connectionId: w.conn1 },
        ]);
        // The next run and the pacing state are kept apart.
        await r.pacing.save({ ...initialPacingState(w.conn1), streak: 3 });
        expect(await r.pacing.dueConnections(at(5), 10)).to.have.length(2);
        await r.pacing.setNextRun(w.c1, w.conn1, at(30));
        expect((await r.pacing.get(w.conn1)).streak).to.equal(3);
        expect(await r.pacing.dueConnections(at(5), 10)).to.deep.equal([{ companyId: w.c1, connectionId: w.conn1b }]);
      });

      it('wakes every planned run of one company at a moment, due or not, leaving unplanned ones and other companies alone', async () => {
        await given();
        await r.pacing.setNextRun(w.c1, w.conn1, at(60));
        await r.pacing.setNextRun(w.c1, w.conn1b, null);
        await r.pacing.setNextRun(w.c2, w.conn2, at(60));
        await r.pacing.wakeCompany(w.c1, at(5));
        expect(await r.pacing.dueConnections(at(5), 10)).to.deep.equal([{ companyId: w.c1, connectionId: w.conn1 }]);
        expect(await r.pacing.dueConnections(at(59), 10)).to.deep.equal([{ companyId: w.c1, connectionId: w.conn1 }]);
        // One already due (a run in progress) takes the moment too: the run's own next run, stored later, keeps it.
        await r.pacing.setNextRun(w.c1, w.conn1, at(1));
        await r.pacing.wakeCompany(w.c1, at(6));
        await r.pacing.setNextRun(w.c1, w.conn1, at(600), at(5));
        expect(await r.pacing.dueConnections(at(6), 10)).to.deep.equal([{ companyId: w.c1, connectionId: w.conn1 }]);
      });
    });

    describe('suppressions and settings', () => {
      it('answers which numbers are suppressed in the company; adding one twice keeps the first entry', async () => {
        await given();
        const c = await add();
        const [a, b, d] = mobiles(3);
        await r.suppressions.add({ companyId: w.c1, number: a!, reason: 'stop-word', campaignId: c.id, createdAt: at(0) });
        await r.suppressions.add({ companyId: w.c1, number: a!, reason: 'manual', campaignId: null, createdAt: at(1) });
        await r.suppressions.add({ companyId: w.c2, number: b!, reason: 'stop-word', campaignId: null, createdAt: at(0) });
        expect(await r.suppressions.suppressed(w.c1, [a!, b!, d!])).to.deep.equal(new Set([a]));
        expect(await r.suppressions.suppressed(w.c2, [a!, b!])).to.deep.equal(new Set([b]));
        expect(await r.suppressions.suppressed(w.c1, [])).to.deep.equal(new Set());
        const lots = mobiles(5000, 100);
        expect(await r.suppressions.suppressed(w.c1, [...lots, a!])).to.deep.equal(new Set([a]));
      });

      it('saves settings rows by key (others stay), answering every stored row of the company', async () => {
        await given();
        expect(await r.settings.rows(w.c1)).to.deep.equal([]);
        const first = await r.settings.save(w.c1, [
          { key: 'messageInterval', value: '30' },
          { key: 'sabado', value: 'true' },
        ]);
        expect(first.map(({ key, value, companyId }) => ({ key, value, companyId }))).to.deep.equal([
          { key: 'messageInterval', value: '30', companyId: w.c1 },
          { key: 'sabado', value: 'true', companyId: w.c1 },
        ]);
        await r.settings.save(w.c2, [{ key: 'messageInterval', value: '90' }]);
        const second = await r.settings.save(w.c1, [
          { key: 'sabado', value: 'false' },
          { key: 'variables', value: '[{"key":"loja","value":"Centro"}]' },
        ]);
        expect(second.map(({ key, value }) => ({ key, value }))).to.deep.equal([
          { key: 'messageInterval', value: '30' },
          { key: 'sabado', value: 'false' },
          { key: 'variables', value: '[{"key":"loja","value":"Centro"}]' },
        ]);
        expect(second[0]).to.deep.equal(first[0]);
        expect(second[1]!.id).to.equal(first[1]!.id);
        expect(second[1]!.createdAt).to.deep.equal(first[1]!.createdAt);
        expect(second[1]!.updatedAt.getTime()).to.be.at.least(first[1]!.updatedAt.getTime());
        for (const row of second) expect(row.createdAt).to.be.instanceOf(Date);
        expect(await r.settings.rows(w.c1)).to.deep.equal(second.map(({ key, value }) => ({ key, value })));
        expect(await r.settings.rows(w.c2)).to.deep.equal([{ key: 'messageInterval', value: '90' }]);
        expect((await r.settings.save(w.c2, [])).map((x) => x.value)).to.deep.equal(['90']);
      });
    });

    describe('audience', () => {
      it("reads a contact list's items with their canonical number, within the company", async () => {
        await given();
        const list = await r.seed.contactList(w.c1, [
          { name: 'Ana', number: '+55 11 8888-0001', canonicalNumber: '5511988880001', email: 'ana@x.io', validity: 'valid', variables: { cupom: 'A10' } },
          { name: 'Bruno', number: '5511988880002', canonicalNumber: '5511988880002', validity: 'invalid' },
          { name: 'Carla', number: '5511988880003', canonicalNumber: '5511988880003', validity: 'error' },
        ]);
        await r.seed.contactList(w.c1, [{ name: 'Other list', number: '5511988880009', canonicalNumber: '5511988880009' }]);
        expect(await r.audience.listItems(w.c1, list.id)).to.deep.equal([
          { id: list.itemIds[0], name: 'Ana', number: '5511988880001', email: 'ana@x.io', validity: 'valid', variables: { cupom: 'A10' } },
          { id: list.itemIds[1], name: 'Bruno', number: '5511988880002', email: '', validity: 'invalid', variables: {} },
          { id: list.itemIds[2], name: 'Carla', number: '5511988880003', email: '', validity: 'error', variables: {} },
        ]);
        expect(await r.audience.listItems(w.c2, list.id)).to.deep.equal([]);
      });

      it('reads the contacts carrying a tag (groups too), and the contacts behind canonical numbers, within the company', async () => {
        await given();
        const vip = await r.seed.tag(w.c1, 'VIP');
        const other = await r.seed.tag(w.c1, 'Other');
        const foreign = await r.seed.tag(w.c2, 'VIP');
        const ana = await r.seed.contact(w.c1, { name: 'Ana', number: '551188880001', email: 'ana@x.io' }, [vip]);
        const bia = await r.seed.contact(w.c1, { name: 'Bia', number: '5511988880002', blocked: true }, [vip, other]);
        const group = await r.seed.contact(w.c1, { name: 'Grupo', number: '120363000000000001', isGroup: true }, [vip]);
        await r.seed.contact(w.c1, { name: 'Untagged', number: '5511988880003' });
        const stranger = await r.seed.contact(w.c2, { name: 'Stranger', number: '5511988880001' }, [foreign]);
        expect(await r.audience.contactsWithTag(w.c1, vip)).to.deep.equal([
          { id: ana, name: 'Ana', number: '551188880001', email: 'ana@x.io', blocked: false, isGroup: false },
          { id: bia, name: 'Bia', number: '5511988880002', email: null, blocked: true, isGroup: false },
          { id: group, name: 'Grupo', number: '120363000000000001', email: null, blocked: false, isGroup: true },
        ]);
        expect(ids(await r.audience.contactsWithTag(w.c1, other))).to.deep.equal([bia]);
        expect(await r.audience.contactsWithTag(w.c1, foreign)).to.deep.equal([]);
        expect(ids(await r.audience.contactsWithTag(w.c2, foreign))).to.deep.equal([stranger]);

        const found = await r.audience.contactsByNumbers(w.c1, ['5511988880001', '5511988880002', '5511988880099']);
        expect(found.sort((x, y) => x.id - y.id)).to.deep.equal([
          { id: ana, name: 'Ana', number: '551188880001', email: 'ana@x.io', blocked: false, isGroup: false },
          { id: bia, name: 'Bia', number: '5511988880002', email: null, blocked: true, isGroup: false },
        ]);
        expect(ids(await r.audience.contactsByNumbers(w.c2, ['5511988880001', '5511988880002']))).to.deep.equal([stranger]);
        expect(await r.audience.contactsByNumbers(w.c1, [])).to.deep.equal([]);
      });
    });

    describe('units of work', () => {
      it('a failed transaction leaves no campaign, recipient, send, suppression or setting behind (databases only)', async function () {
        if (!r.rollsBack) this.skip();
        await given();
        const kept = await add({ status: 'EM_ANDAMENTO' });
        let inside: number | undefined;
        await r.tx
          .run(async () => {
            const c = await add({ status: 'EM_ANDAMENTO' });
            inside = c.id;
            await r.recipients.addMany([recipientDraft(c, mobiles(1)[0]!), recipientDraft(kept, mobiles(1)[0]!)]);
            expect((await r.recipients.claimNext(w.conn1, at(0), at(1)))?.campaignId).to.equal(kept.id);
            expect(await r.campaigns.transition(w.c1, kept.id, ['EM_ANDAMENTO'], 'PAUSADA')).to.equal(true);
            await r.pacing.recordSend(w.conn1, at(0));
            await r.pacing.save({ ...initialPacingState(w.conn1), streak: 5 });
            await r.pacing.setNextRun(w.c1, w.conn1, at(0));
            await r.suppressions.add({ companyId: w.c1, number: mobiles(1)[0]!, reason: 'stop-word', campaignId: c.id, createdAt: at(0) });
            await r.settings.save(w.c1, [{ key: 'capDaily', value: '10' }]);
            throw new Error('boom');
          })
          .catch(() => undefined);
        expect(await r.campaigns.findById(w.c1, inside!)).to.equal(null);
        expect((await r.campaigns.findById(w.c1, kept.id))?.status).to.equal('EM_ANDAMENTO');
        expect((await r.recipients.progress(w.c1, kept.id)).total).to.equal(0);
        expect(await r.pacing.sendsSince(w.conn1, at(-60))).to.deep.equal([]);
        expect(await r.pacing.get(w.conn1)).to.deep.equal(initialPacingState(w.conn1));
        expect(await r.pacing.dueConnections(at(0), 10)).to.deep.equal([]);
        expect(await r.suppressions.suppressed(w.c1, mobiles(1))).to.deep.equal(new Set());
        expect(await r.settings.rows(w.c1)).to.deep.equal([]);
      });
    });
  });
}
