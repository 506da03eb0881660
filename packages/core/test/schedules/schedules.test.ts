import { expect } from 'chai';
import { ENSURE_JOBS_JOB } from '../../src/schedules/jobs.js';
import { localParts } from '../../src/shared/zoned-time.js';
import { code, scheduleWorld, type ScheduleWorld } from './schedule-world.js';

const HOUR = 3_600_000;
const localTime = (d: Date) => {
  const p = localParts(d, 'America/New_York');
  return `${Math.floor(p.minute / 60)}:${String(p.minute % 60).padStart(2, '0')}`;
};

async function contactSchedule(w: ScheduleWorld, fields: Record<string, unknown> = {}, actor = w.ana) {
  const contact = await w.contact();
  const schedule = await w.app.schedules.createSchedule.execute({
    actor,
    schedule: { body: 'Olá {{firstName}}', sendAt: '2026-03-05 09:00', contactId: contact.id, ...fields },
  });
  return { contact, schedule };
}

describe('Schedules: use cases on a fake clock', () => {
  it('sends a schedule once at its moment, through the one send path, and ends it ENVIADA', async () => {
    const w = await scheduleWorld();
    const { contact, schedule } = await contactSchedule(w, { body: 'Olá {{firstName}}, aqui é {{userName}}', sign: true });
    expect(schedule).to.include({
      status: 'PENDENTE',
      sendAt: '2026-03-05T14:00:00.000Z',
      contactId: contact.id,
      userId: w.ana.userId,
      intervalo: 1,
      valorIntervalo: 0,
    });
    const [job] = await w.sendJobs();
    expect(job).to.include({ key: String((await w.occurrences(schedule.id))[0]!.id) });
    expect(job!.runAt.toISOString()).to.equal('2026-03-05T14:00:00.000Z');

    w.clock.to('2026-03-05T13:59:59.000Z');
    expect(await w.runDue()).to.deep.equal([]);
    expect(w.sent()).to.have.length(0);
    w.clock.to('2026-03-05T14:00:00.000Z');
    await w.runDue();
    const [message] = w.sent();
    expect(message!.body).to.equal(`*Ana:*\nOlá ${contact.name.split(' ')[0]}, aqui é Ana`);
    expect(message!.connectionId).to.equal(w.connection.id);
    expect(w.ports.outbox.entries.filter((e) => e.id === message!.id)).to.have.length(1);
    const shown = await w.app.schedules.showSchedule.execute({ actor: w.admin, scheduleId: schedule.id });
    expect(shown).to.include({ status: 'ENVIADA', sentAt: '2026-03-05T14:00:00.000Z', contadorEnvio: 1, ticketId: message!.ticketId });
    expect(shown.occurrences).to.deep.equal([
      {
        id: shown.occurrences[0]!.id,
        sequence: 1,
        dueAt: '2026-03-05T14:00:00.000Z',
        status: 'sent',
        recipients: 1,
        sent: 1,
        failed: 0,
        failureReason: null,
        settledAt: '2026-03-05T14:00:00.000Z',
      },
    ]);
    // Closed ticket by default (no operator queue fills up), reused by the next send.
    expect((await w.ports.tickets.findById(w.acme.id, message!.ticketId))!.status).to.equal('closed');
    w.clock.to('2026-03-06T14:00:00.000Z');
    expect(await w.runDue()).to.deep.equal([]);
    expect(w.sent()).to.have.length(1);
    expect(await w.sendJobs()).to.deep.equal([]);
  });

  it('opens the ticket for the chosen user and queue when asked', async () => {
    const w = await scheduleWorld();
    const { schedule } = await contactSchedule(w, { openTicket: true, statusTicket: 'open', ticketUserId: w.bia.userId, queueId: w.sales.id });
    w.clock.to('2026-03-05T14:00:00.000Z');
    await w.runDue();
    const ticket = (await w.ports.tickets.findById(w.acme.id, w.sent()[0]!.ticketId))!;
    expect(ticket).to.include({ status: 'open', userId: w.bia.userId, queueId: w.sales.id });
    expect((await w.app.schedules.showSchedule.execute({ actor: w.ana, scheduleId: schedule.id })).ticketId).to.equal(ticket.id);
  });

  it("keeps a weekly 09:00 at 09:00 on the company's clock across the daylight-saving change", async () => {
    const w = await scheduleWorld();
    const { schedule } = await contactSchedule(w, { recurrence: { interval: 2, every: 1, count: 3 } });
    for (const at of ['2026-03-05T14:00:00.000Z', '2026-03-12T13:00:00.000Z', '2026-03-19T13:00:00.000Z']) {
      w.clock.to(at);
      await w.runDue();
    }
    expect(w.sent().map((m) => m.createdAt.toISOString())).to.deep.equal(['2026-03-05T14:00:00.000Z', '2026-03-12T13:00:00.000Z', '2026-03-19T13:00:00.000Z']);
    expect(w.sent().map((m) => localTime(m.createdAt))).to.deep.equal(['9:00', '9:00', '9:00']);
    expect((await w.occurrences(schedule.id)).map((o) => [o.sequence, o.status])).to.deep.equal([
      [1, 'sent'],
      [2, 'sent'],
      [3, 'sent'],
    ]);
    expect(await w.app.schedules.showSchedule.execute({ actor: w.ana, scheduleId: schedule.id })).to.include({
      status: 'ENVIADA',
      contadorEnvio: 3,
      enviarQuantasVezes: 3,
    });
  });

  it('sends on restart what is less than SCHEDULE_MISSED_AFTER_HOURS late, marks missed what is more, and goes on with the series', async () => {
    const w = await scheduleWorld();
    const { schedule: late } = await contactSchedule(w);
    const { schedule: tooLate } = await contactSchedule(w, { sendAt: '2026-03-04 09:00' });
    const { schedule: daily } = await contactSchedule(w, { sendAt: '2026-03-04 09:00', recurrence: { interval: 1, every: 1, count: 0 } });
    // Everything is down from before the first moment until 23 hours after the second: 2026-03-06 08:00 New York.
    w.clock.to('2026-03-06T13:00:00.000Z');
    await w.runDue();
    const show = (id: number) => w.app.schedules.showSchedule.execute({ actor: w.admin, scheduleId: id });
    expect(await show(late.id)).to.include({ status: 'ENVIADA', contadorEnvio: 1 });
    expect(await show(tooLate.id)).to.include({ status: 'PERDIDA', contadorEnvio: 0, sendAt: '2026-03-04T14:00:00.000Z' });
    expect((await w.occurrences(tooLate.id)).map((o) => o.status)).to.deep.equal(['missed']);
    // The daily one stands for its latest due moment (5 March, 23 h late): one send, not a burst; the 4th is missed.
    expect((await w.occurrences(daily.id)).map((o) => [o.sequence, o.status, o.dueAt.toISOString()])).to.deep.equal([
      [1, 'missed', '2026-03-04T14:00:00.000Z'],
      [2, 'sent', '2026-03-05T14:00:00.000Z'],
      [3, 'pending', '2026-03-06T14:00:00.000Z'],
    ]);
    expect(await show(daily.id)).to.include({ status: 'PENDENTE', sendAt: '2026-03-06T14:00:00.000Z', contadorEnvio: 1 });
    expect(w.sent()).to.have.length(2);
  });

  it('misses a recurring occurrence whose every due moment is too late, and arms the next one ahead', async () => {
    const w = await scheduleWorld();
    const { schedule } = await contactSchedule(w, { recurrence: { interval: 2, every: 1 } });
    w.clock.to('2026-03-07T12:00:00.000Z'); // two days after the Thursday moment, before the next Thursday
    await w.runDue();
    expect((await w.occurrences(schedule.id)).map((o) => [o.status, o.dueAt.toISOString()])).to.deep.equal([
      ['missed', '2026-03-05T14:00:00.000Z'],
      ['pending', '2026-03-12T13:00:00.000Z'],
    ]);
    expect(w.sent()).to.have.length(0);
    const [job] = await w.sendJobs();
    expect(job!.runAt.toISOString()).to.equal('2026-03-12T13:00:00.000Z');
  });

  it('follows SCHEDULE_MISSED_AFTER_HOURS as configured', async () => {
    const w = await scheduleWorld('2026-03-02T12:00:00.000Z', { missedAfterMs: HOUR });
    const { schedule } = await contactSchedule(w);
    w.clock.to('2026-03-05T15:00:01.000Z');
    await w.runDue();
    expect((await w.occurrences(schedule.id))[0]!.status).to.equal('missed');
  });

  it('waits for a session that is down, then fails the occurrence with the reason after the last try', async () => {
    const w = await scheduleWorld('2026-03-02T12:00:00.000Z', { maxAttempts: 3 });
    const { schedule } = await contactSchedule(w, { recurrence: { interval: 1, every: 1, count: 2 } });
    await w.ports.connections.update({ ...w.connection, status: 'DISCONNECTED' });
    w.clock.to('2026-03-05T14:00:00.000Z');
    expect(await w.runDue()).to.deep.equal(['schedule send waits: ERR_SESSION_NOT_CONNECTED']);
    expect((await w.occurrences(schedule.id))[0]!.status).to.equal('pending');
    w.clock.to('2026-03-05T14:00:10.000Z');
    expect(await w.runDue()).to.have.length(1);
    w.clock.to('2026-03-05T14:00:20.000Z');
    expect(await w.runDue()).to.deep.equal([]); // the third and last try fails the occurrence instead
    expect((await w.occurrences(schedule.id)).map((o) => [o.status, o.failureReason])).to.deep.equal([
      ['failed', 'ERR_SESSION_NOT_CONNECTED'],
      ['pending', null],
    ]);
    expect(await w.app.schedules.showSchedule.execute({ actor: w.ana, scheduleId: schedule.id })).to.include({
      status: 'PENDENTE',
      lastError: 'ERR_SESSION_NOT_CONNECTED',
    });
    // Connected again: the next day's occurrence is sent, and the schedule ends with it.
    await w.ports.connections.update({ ...w.connection, status: 'CONNECTED' });
    w.clock.to('2026-03-06T14:00:00.000Z');
    await w.runDue();
    expect(w.sent()).to.have.length(1);
    expect(await w.app.schedules.showSchedule.execute({ actor: w.ana, scheduleId: schedule.id })).to.include({
      status: 'ENVIADA',
      lastError: null,
      contadorEnvio: 1,
    });
  });

  it('sends through the default connection when none is chosen, and fails the occurrence when there is none', async () => {
    const w = await scheduleWorld();
    const { schedule } = await contactSchedule(w);
    await w.ports.connections.update({ ...w.connection, isDefault: false });
    w.clock.to('2026-03-05T14:00:00.000Z');
    await w.runDue();
    expect((await w.occurrences(schedule.id))[0]).to.include({ status: 'failed', failureReason: 'ERR_NO_DEFAULT_CONNECTION' });
    expect(await w.app.schedules.showSchedule.execute({ actor: w.ana, scheduleId: schedule.id })).to.include({
      status: 'ERRO',
      lastError: 'ERR_NO_DEFAULT_CONNECTION',
    });
  });

  it('moves the waiting occurrence and its job when the time is edited, and starts a new series for a finished schedule', async () => {
    const w = await scheduleWorld();
    const { schedule } = await contactSchedule(w);
    const [first] = await w.occurrences(schedule.id);
    // The form sends back the whole schedule with its time to the minute: nothing moves.
    const echoed = await w.app.schedules.updateSchedule.execute({
      actor: w.ana,
      scheduleId: schedule.id,
      schedule: { body: 'Novo texto', sendAt: '2026-03-05T09:00' },
    });
    expect(echoed.sendAt).to.equal('2026-03-05T14:00:00.000Z');
    const moved = await w.app.schedules.updateSchedule.execute({ actor: w.ana, scheduleId: schedule.id, schedule: { sendAt: '2026-03-05 10:30' } });
    expect(moved).to.include({ sendAt: '2026-03-05T15:30:00.000Z', body: 'Novo texto' });
    expect((await w.sendJobs()).map((j) => [j.key, j.runAt.toISOString()])).to.deep.equal([[String(first!.id), '2026-03-05T15:30:00.000Z']]);
    w.clock.to('2026-03-05T14:00:00.000Z');
    await w.runDue();
    expect(w.sent()).to.have.length(0);
    w.clock.to('2026-03-05T15:30:00.000Z');
    await w.runDue();
    expect(w.sent().map((m) => m.body)).to.deep.equal(['Novo texto']);
    // Finished: a new time starts a new series (sequence 2), sent once at that time.
    const again = await w.app.schedules.updateSchedule.execute({ actor: w.ana, scheduleId: schedule.id, schedule: { sendAt: '2026-03-10 08:00' } });
    expect(again).to.include({ status: 'PENDENTE', sendAt: '2026-03-10T12:00:00.000Z' });
    w.clock.to('2026-03-10T12:00:00.000Z');
    await w.runDue();
    expect((await w.occurrences(schedule.id)).map((o) => [o.sequence, o.status])).to.deep.equal([
      [1, 'sent'],
      [2, 'sent'],
    ]);
    expect(w.sent()).to.have.length(2);
  });

  it('deletes a schedule with its waiting job; nothing is sent', async () => {
    const w = await scheduleWorld();
    const { schedule } = await contactSchedule(w);
    await w.app.schedules.deleteSchedule.execute({ actor: w.ana, scheduleId: schedule.id });
    expect(await w.sendJobs()).to.deep.equal([]);
    expect(await code(w.app.schedules.showSchedule.execute({ actor: w.ana, scheduleId: schedule.id }))).to.equal('ERR_NO_SCHEDULE_FOUND');
    w.clock.to('2026-03-06T00:00:00.000Z');
    await w.runDue();
    expect(w.sent()).to.have.length(0);
  });

  it('gives an open occurrence whose job was lost its job again (the safety net), once', async () => {
    const w = await scheduleWorld();
    const { schedule } = await contactSchedule(w);
    const [o] = await w.occurrences(schedule.id);
    expect(await w.ports.jobStore.cancel('schedules.send', String(o!.id))).to.equal(true);
    w.clock.to('2026-03-05T13:58:30.000Z');
    expect(await w.app.schedules.ensureOccurrenceJobs.execute()).to.equal(1);
    expect(await w.app.schedules.ensureOccurrenceJobs.execute()).to.equal(1);
    expect((await w.sendJobs()).map((j) => j.runAt.toISOString())).to.deep.equal(['2026-03-05T14:00:00.000Z']);
    w.clock.to('2026-03-05T14:00:00.000Z');
    await w.runDue();
    expect(w.sent()).to.have.length(1);
    expect(w.app.schedules.jobs().map((j) => j.name)).to.include(ENSURE_JOBS_JOB);
  });

  it('checks plan, company and profile, and answers bad input with its code', async () => {
    const w = await scheduleWorld();
    const { contact, schedule } = await contactSchedule(w);
    const theirs = await w.contact(w.other.id);
    const create = (fields: Record<string, unknown>, actor = w.ana) =>
      code(w.app.schedules.createSchedule.execute({ actor, schedule: { body: 'Oi', sendAt: '2026-03-05 09:00', contactId: contact.id, ...fields } }));
    expect(await create({ contactId: theirs.id })).to.equal('ERR_NO_CONTACT_FOUND');
    expect(await create({ connectionId: w.otherConnection.id })).to.equal('ERR_NO_CONNECTION_FOUND');
    expect(await create({ ticketUserId: w.otherAdmin.userId })).to.equal('ERR_NO_USER_FOUND');
    expect(await create({ queueId: 999 })).to.equal('ERR_QUEUE_NOT_FOUND');
    expect(await create({ body: '   ' })).to.equal('ERR_SCHEDULE_INVALID_BODY');
    expect(await create({ body: 'x'.repeat(4097) })).to.equal('ERR_SCHEDULE_INVALID_BODY');
    expect(await create({ sendAt: 'amanhã' })).to.equal('ERR_SCHEDULE_INVALID_TIME');
    expect(await create({ sendAt: '2026-02-30 09:00' })).to.equal('ERR_SCHEDULE_INVALID_TIME');
    expect(await create({ sendAt: '2026-03-02 06:00' })).to.equal('ERR_SCHEDULE_IN_PAST');
    expect(await create({ sendAt: undefined })).to.equal('ERR_SCHEDULE_INVALID_TIME');
    expect(await create({ contactId: undefined })).to.equal('ERR_SCHEDULE_NO_RECIPIENTS');
    expect(await create({ recurrence: { interval: 9, every: 1 } })).to.equal('ERR_SCHEDULE_INVALID_RECURRENCE');
    expect(await create({ recurrence: { every: -1 } })).to.equal('ERR_SCHEDULE_INVALID_RECURRENCE');
    expect(await create({ recurrence: { weekend: 7, every: 1 } })).to.equal('ERR_SCHEDULE_INVALID_RECURRENCE');
    expect(await create({ recurrence: { every: 1, until: '2026-03-04 09:00' } })).to.equal('ERR_SCHEDULE_INVALID_RECURRENCE');
    // A user changes only their own schedules; admins any; another company sees none.
    expect(await code(w.app.schedules.updateSchedule.execute({ actor: w.bia, scheduleId: schedule.id, schedule: { body: 'Mine now' } }))).to.equal(
      'ERR_NO_PERMISSION',
    );
    expect(await code(w.app.schedules.deleteSchedule.execute({ actor: w.bia, scheduleId: schedule.id }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(w.app.schedules.updateSchedule.execute({ actor: w.admin, scheduleId: schedule.id, schedule: { body: 'Admin edit' } }))).to.equal(
      'resolved',
    );
    expect(await code(w.app.schedules.showSchedule.execute({ actor: w.otherAdmin, scheduleId: schedule.id }))).to.equal('ERR_NO_SCHEDULE_FOUND');
    expect(await code(w.app.schedules.showScheduledMessage.execute({ actor: w.ana, scheduleId: schedule.id }))).to.equal('ERR_NO_SCHEDULE_FOUND');
    const plan = (await w.ports.plans.findById((await w.ports.companies.findById(w.acme.id))!.planId))!;
    await w.ports.plans.update({ ...plan, features: { ...plan.features, schedules: false } });
    expect(await code(w.app.schedules.listSchedules.execute({ actor: w.ana }))).to.equal('ERR_PLAN_FEATURE_DISABLED');
    expect(await create({})).to.equal('ERR_PLAN_FEATURE_DISABLED');
  });

  it("lists the company's schedules newest first, found by text or contact name, filtered by contact", async () => {
    const w = await scheduleWorld();
    const first = await contactSchedule(w, { body: 'Cobrança de março' });
    const second = await contactSchedule(w, { body: 'Aniversário' });
    await w.ports.contacts.update({ ...second.contact, name: 'Zélia Souza' });
    const list = (input: Record<string, unknown> = {}) => w.app.schedules.listSchedules.execute({ actor: w.bia, ...input });
    expect((await list()).schedules.map((s) => s.id)).to.deep.equal([second.schedule.id, first.schedule.id]);
    expect((await list({ searchParam: 'cobranca' })).schedules.map((s) => s.id)).to.deep.equal([first.schedule.id]);
    expect((await list({ searchParam: 'zelia' })).schedules.map((s) => s.id)).to.deep.equal([second.schedule.id]);
    expect((await list({ contactId: first.contact.id })).count).to.equal(1);
    expect((await w.app.schedules.listSchedules.execute({ actor: w.otherAdmin })).count).to.equal(0);
  });
});
