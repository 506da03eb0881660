import { expect } from 'chai';
import type { ScheduleDeliveries, ScheduleOccurrences, Schedules } from '../../src/schedules/ports.js';
import { NO_RECURRENCE } from '../../src/schedules/recurrence.js';
import type { NewOccurrence, NewSchedule, ScheduleKind } from '../../src/schedules/schedule.js';

/** What schedules point at, written by each adapter's own means (rows for databases, maps in memory). */
export interface ScheduleSeed {
  company(name: string): Promise<number>;
  /** A contact of the company with this name. */
  contact(companyId: number, name: string): Promise<number>;
}

export interface SchedulesFixture {
  readonly schedules: Schedules;
  readonly occurrences: ScheduleOccurrences;
  readonly deliveries: ScheduleDeliveries;
  readonly seed: ScheduleSeed;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

export function scheduleDraft(companyId: number, kind: ScheduleKind, overrides: Partial<NewSchedule> = {}): NewSchedule {
  return {
    companyId,
    kind,
    name: kind === 'bulk' ? 'Aviso' : null,
    body: 'Olá',
    contactId: null,
    contactIds: [],
    tagIds: [],
    connectionId: null,
    userId: null,
    ticketUserId: null,
    queueId: null,
    openTicket: false,
    statusTicket: 'closed',
    sign: false,
    signUserId: null,
    media: null,
    recurrence: NO_RECURRENCE,
    anchorAt: at(60),
    anchorSequence: 1,
    seriesStart: 1,
    sendAt: at(60),
    status: 'PENDENTE',
    sentAt: null,
    sentCount: 0,
    lastError: null,
    ticketId: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function occurrenceDraft(s: { id: number; companyId: number }, sequence: number, overrides: Partial<NewOccurrence> = {}): NewOccurrence {
  return {
    companyId: s.companyId,
    scheduleId: s.id,
    sequence,
    dueAt: at(60 * sequence),
    status: 'pending',
    step: 0,
    recipients: 0,
    sent: 0,
    failed: 0,
    failureReason: null,
    settledAt: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** One suite for every adapter of the schedule ports: schedules, their occurrences and the occurrences' recipients. */
export function describeSchedulesContract(name: string, make: () => Promise<SchedulesFixture>) {
  describe(`Schedules contract: ${name}`, function () {
    this.timeout(60_000);
    let r: SchedulesFixture;
    let c1: number;
    let c2: number;
    beforeEach(async () => {
      r = await make();
    });
    /** The two companies of every test (written inside the test: database adapters need its unit of work). */
    const companies = async () => {
      c1 = await r.seed.company('Acme');
      c2 = await r.seed.company('Other');
    };

    it("keeps every field, scoped by company; an edit keeps the runs' progress and the progress keeps the edit", async () => {
      await companies();
      const contactId = await r.seed.contact(c1, 'Ana');
      const draft = scheduleDraft(c1, 'contact', {
        contactId,
        body: 'Oi {{name}}',
        openTicket: true,
        statusTicket: 'open',
        sign: true,
        media: { path: 'public/company-1/schedules/a.png', name: 'a.png', contentType: 'image/png', size: 12 },
        recurrence: { frequency: 'weeks', every: 2, count: 5, until: at(100_000), weekend: 'after' },
        anchorSequence: 3,
        seriesStart: 2,
      });
      const added = await r.schedules.add(draft);
      expect(added.id).to.be.a('number');
      expect(await r.schedules.findById(c1, added.id)).to.deep.equal({ ...draft, id: added.id });
      expect(await r.schedules.findById(c2, added.id)).to.equal(null);
      const bulk = await r.schedules.add(scheduleDraft(c1, 'bulk', { contactIds: [contactId, 99], tagIds: [7, 8] }));
      expect(await r.schedules.findById(c1, bulk.id)).to.deep.include({ contactIds: [contactId, 99], tagIds: [7, 8], name: 'Aviso' });

      await r.schedules.update({ ...added, body: 'Editado', status: 'ERRO', sentCount: 9, lastError: 'ERR_X', sendAt: at(5) });
      const progress = { status: 'ENVIADA' as const, sendAt: at(70), sentAt: at(70), sentCount: 1, lastError: null, ticketId: null, updatedAt: at(70) };
      await r.schedules.recordProgress(c1, added.id, progress);
      await r.schedules.recordProgress(c2, added.id, { ...progress, sentCount: 50 });
      expect(await r.schedules.findById(c1, added.id)).to.deep.equal({ ...draft, id: added.id, body: 'Editado', ...progress });
      await r.schedules.update({ ...added, companyId: c2, body: 'Not theirs' });
      expect((await r.schedules.findById(c1, added.id))!.body).to.equal('Editado');
    });

    it('pages one kind newest first, found by text, contact name or name without accents, filtered by contact, user and status', async () => {
      await companies();
      const ana = await r.seed.contact(c1, 'Ana Júlia');
      const bia = await r.seed.contact(c1, 'Bia');
      const s1 = await r.schedules.add(scheduleDraft(c1, 'contact', { contactId: ana, body: 'Cobrança', userId: null, createdAt: at(1) }));
      const s2 = await r.schedules.add(scheduleDraft(c1, 'contact', { contactId: bia, body: 'Lembrete', status: 'ENVIADA', createdAt: at(2) }));
      const s3 = await r.schedules.add(scheduleDraft(c1, 'contact', { contactId: bia, body: 'Outro', createdAt: at(2) }));
      const b1 = await r.schedules.add(scheduleDraft(c1, 'bulk', { name: 'Promoção de verão', contactIds: [ana], createdAt: at(3) }));
      await r.schedules.add(scheduleDraft(c2, 'contact', { contactId: await r.seed.contact(c2, 'Ana'), body: 'Cobrança' }));
      const page = (filter: Record<string, unknown> = {}) =>
        r.schedules
          .page({ companyId: c1, kind: 'contact', offset: 0, limit: 20, ...filter })
          .then(({ rows, count }) => ({ ids: rows.map((s) => s.id), count }));
      expect(await page()).to.deep.equal({ ids: [s3.id, s2.id, s1.id], count: 3 });
      expect(await page({ limit: 2, offset: 1 })).to.deep.equal({ ids: [s2.id, s1.id], count: 3 });
      expect(await page({ search: 'COBRANCA' })).to.deep.equal({ ids: [s1.id], count: 1 });
      expect(await page({ search: 'julia' })).to.deep.equal({ ids: [s1.id], count: 1 });
      expect(await page({ search: '50%_' })).to.deep.equal({ ids: [], count: 0 });
      expect(await page({ contactId: bia })).to.deep.equal({ ids: [s3.id, s2.id], count: 2 });
      expect(await page({ status: 'ENVIADA' })).to.deep.equal({ ids: [s2.id], count: 1 });
      expect(await page({ userId: 12345 })).to.deep.equal({ ids: [], count: 0 });
      expect(await page({ kind: 'bulk', search: 'verao' })).to.deep.equal({ ids: [b1.id], count: 1 });
    });

    it("removes a schedule with its occurrences and their recipients; another company's stays", async () => {
      await companies();
      const contactId = await r.seed.contact(c1, 'Ana');
      const s = await r.schedules.add(scheduleDraft(c1, 'contact', { contactId }));
      const o = await r.occurrences.add(occurrenceDraft(s, 1));
      await r.deliveries.addMany([{ companyId: c1, occurrenceId: o.id, contactId }]);
      expect(await r.schedules.remove(c2, s.id)).to.equal(false);
      expect(await r.schedules.remove(c1, s.id)).to.equal(true);
      expect(await r.schedules.remove(c1, s.id)).to.equal(false);
      expect(await r.schedules.findById(c1, s.id)).to.equal(null);
      expect(await r.occurrences.findById(c1, o.id)).to.equal(null);
      expect(await r.deliveries.counts(c1, o.id)).to.deep.equal({ pending: 0, sent: 0, failed: 0 });
    });

    it('keeps one occurrence per sequence and one open occurrence per schedule', async () => {
      await companies();
      const s = await r.schedules.add(scheduleDraft(c1, 'contact', { contactId: await r.seed.contact(c1, 'Ana') }));
      const first = await r.occurrences.add(occurrenceDraft(s, 1));
      expect(await r.occurrences.findById(c1, first.id)).to.deep.equal(first);
      expect(await r.occurrences.findById(c2, first.id)).to.equal(null);
      let refused = false;
      await r.occurrences.add(occurrenceDraft(s, 2)).catch(() => {
        refused = true;
      });
      expect(refused, 'a second open occurrence').to.equal(true);
      refused = false;
      await r.occurrences.add(occurrenceDraft(s, 1, { status: 'missed' })).catch(() => {
        refused = true;
      });
      expect(refused, 'a sequence twice').to.equal(true);
      expect(await r.occurrences.transition(c1, first.id, ['pending'], 'sent', { settledAt: at(60), sent: 1, recipients: 1 })).to.equal(true);
      const second = await r.occurrences.add(occurrenceDraft(s, 2));
      expect(await r.occurrences.openOf(c1, s.id)).to.deep.equal(second);
      expect(await r.occurrences.openOf(c2, s.id)).to.equal(null);
      expect((await r.occurrences.latestOf(c1, s.id, 10)).map((o) => [o.sequence, o.status])).to.deep.equal([
        [2, 'pending'],
        [1, 'sent'],
      ]);
      expect(await r.occurrences.latestOf(c1, s.id, 1)).to.have.length(1);
      expect(await r.occurrences.findById(c1, first.id)).to.include({ status: 'sent', sent: 1, recipients: 1 });
    });

    it('moves an occurrence on only from the stated status and step: of two runs exactly one does', async () => {
      await companies();
      const s = await r.schedules.add(scheduleDraft(c1, 'contact', { contactId: await r.seed.contact(c1, 'Ana') }));
      const o = await r.occurrences.add(occurrenceDraft(s, 1));
      const wins = await Promise.all(
        [1, 2, 3].map(() => r.occurrences.transition(c1, o.id, ['pending'], 'sending', { step: 1, recipients: 3, updatedAt: at(1) }, 0)),
      );
      expect(wins.filter(Boolean)).to.have.length(1);
      expect(await r.occurrences.transition(c1, o.id, ['sending'], 'sending', { step: 2 }, 0)).to.equal(false);
      expect(await r.occurrences.transition(c2, o.id, ['sending'], 'sending', { step: 2 }, 1)).to.equal(false);
      expect(await r.occurrences.transition(c1, o.id, ['sending'], 'sending', { step: 2, sent: 1 }, 1)).to.equal(true);
      expect(await r.occurrences.transition(c1, o.id, ['sending'], 'failed', { failureReason: 'ERR_X', settledAt: at(2), failed: 2 })).to.equal(true);
      expect(await r.occurrences.findById(c1, o.id)).to.deep.include({
        status: 'failed',
        step: 2,
        recipients: 3,
        sent: 1,
        failed: 2,
        failureReason: 'ERR_X',
        settledAt: at(2),
      });
      expect(await r.occurrences.reschedule(c1, o.id, at(500), at(3))).to.equal(false);
    });

    it("reschedules a pending occurrence, and lists every company's open occurrences due by a moment, earliest first", async () => {
      await companies();
      const s1 = await r.schedules.add(scheduleDraft(c1, 'contact', { contactId: await r.seed.contact(c1, 'Ana') }));
      const s2 = await r.schedules.add(scheduleDraft(c2, 'contact', { contactId: await r.seed.contact(c2, 'Bia') }));
      const s3 = await r.schedules.add(scheduleDraft(c1, 'bulk', { contactIds: [1] }));
      const s4 = await r.schedules.add(scheduleDraft(c1, 'contact', { contactId: await r.seed.contact(c1, 'Caio') }));
      const o1 = await r.occurrences.add(occurrenceDraft(s1, 1, { dueAt: at(30) }));
      const o2 = await r.occurrences.add(occurrenceDraft(s2, 1, { dueAt: at(10) }));
      const o3 = await r.occurrences.add(occurrenceDraft(s3, 1, { dueAt: at(20), status: 'sending', step: 4 }));
      await r.occurrences.add(occurrenceDraft(s4, 1, { dueAt: at(5), status: 'missed' }));
      expect(await r.occurrences.reschedule(c2, o1.id, at(40), at(1))).to.equal(false);
      expect(await r.occurrences.reschedule(c1, o1.id, at(25), at(1))).to.equal(true);
      expect(await r.occurrences.findById(c1, o1.id))
        .to.include({ status: 'pending' })
        .and.deep.include({ dueAt: at(25), updatedAt: at(1) });
      expect((await r.occurrences.openDueBy(at(25), 10)).map((o) => o.id)).to.deep.equal([o2.id, o3.id, o1.id]);
      expect((await r.occurrences.openDueBy(at(20), 10)).map((o) => o.id)).to.deep.equal([o2.id, o3.id]);
      expect((await r.occurrences.openDueBy(at(60), 1)).map((o) => o.id)).to.deep.equal([o2.id]);
    });

    it('adds each recipient once, hands them out in order and settles each once', async () => {
      await companies();
      const contacts = [await r.seed.contact(c1, 'Ana'), await r.seed.contact(c1, 'Bia'), await r.seed.contact(c1, 'Caio')];
      const s = await r.schedules.add(scheduleDraft(c1, 'bulk', { contactIds: contacts }));
      const o = await r.occurrences.add(occurrenceDraft(s, 1));
      expect(await r.deliveries.addMany(contacts.map((contactId) => ({ companyId: c1, occurrenceId: o.id, contactId })))).to.equal(3);
      expect(await r.deliveries.addMany([{ companyId: c1, occurrenceId: o.id, contactId: contacts[0]! }])).to.equal(0);
      const first = (await r.deliveries.nextPending(c1, o.id))!;
      expect(first).to.deep.include({ contactId: contacts[0], status: 'pending', messageId: null, ticketId: null, failureReason: null, sentAt: null });
      expect(await r.deliveries.nextPending(c2, o.id)).to.equal(null);
      const sent = { status: 'sent' as const, messageId: '00000000-0000-4000-8000-000000000001', ticketId: null, failureReason: null, sentAt: at(60) };
      const wins = await Promise.all([1, 2].map(() => r.deliveries.settle(c1, first.id, sent)));
      expect(wins.filter(Boolean)).to.have.length(1);
      expect(await r.deliveries.settle(c2, (await r.deliveries.nextPending(c1, o.id))!.id, sent)).to.equal(false);
      expect((await r.deliveries.nextPending(c1, o.id))!.contactId).to.equal(contacts[1]);
      expect(await r.deliveries.failPending(c1, o.id, 'ERR_SESSION_NOT_CONNECTED')).to.equal(2);
      expect(await r.deliveries.counts(c1, o.id)).to.deep.equal({ pending: 0, sent: 1, failed: 2 });
      expect(await r.deliveries.nextPending(c1, o.id)).to.equal(null);
      const listed = await r.deliveries.listOf(c1, o.id, 10);
      expect(listed.map((d) => [d.contactId, d.status, d.failureReason])).to.deep.equal([
        [contacts[0], 'sent', null],
        [contacts[1], 'failed', 'ERR_SESSION_NOT_CONNECTED'],
        [contacts[2], 'failed', 'ERR_SESSION_NOT_CONNECTED'],
      ]);
      expect(listed[0]).to.deep.include({ messageId: sent.messageId, sentAt: at(60) });
      expect(await r.deliveries.listOf(c2, o.id, 10)).to.deep.equal([]);
    });
  });
}
