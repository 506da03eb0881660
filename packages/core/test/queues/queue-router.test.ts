import { expect } from 'chai';
import { MAX_BOT_RETRIES } from '../../src/index.js';
import { botWorld } from './bot-world.js';

const MENU = '*1* - Sales\n*2* - Support';

describe('Routing engine: queue menu, option trees and chatbots (in-memory)', () => {
  it('greets a new conversation once, followed by the queue menu once; "2" moves the ticket to queue 2; a duplicate of that reply changes nothing', async () => {
    const w = await botWorld();
    const first = await w.say('oi');
    expect(w.sent()).to.deep.equal(['Welcome!', MENU]);
    expect(await w.ticket()).to.include({ status: 'pending', queueId: null, botActive: true, botAttempts: 0 });
    const again = await Promise.all(Array.from({ length: 5 }, () => w.app.conversations.routeInbound.execute(first)));
    expect(again.every((r) => r.duplicate)).to.equal(true);
    expect(w.sent()).to.have.length(2);

    const reply = await w.say('2');
    const moved = await w.ticket();
    expect(moved).to.include({ queueId: w.support.id, botActive: false, status: 'pending', unreadMessages: 2 });
    expect(w.sent()).to.deep.equal(['Welcome!', MENU, 'Support here.']);
    const update = w.ports.realtime.events.filter((e) => e.entity === 'ticket').pop()!;
    expect(update.data).to.deep.include({ action: 'update' });
    expect('ticket' in update.data && update.data.ticket.queueId).to.equal(w.support.id);

    const before = { ticket: await w.ticket(), events: w.ports.realtime.events.length, outbox: w.ports.outbox.entries.length };
    expect((await w.app.conversations.routeInbound.execute(reply)).duplicate).to.equal(true);
    expect(await w.ticket()).to.deep.equal(before.ticket);
    expect(w.ports.realtime.events).to.have.length(before.events);
    expect(w.ports.outbox.entries).to.have.length(before.outbox);
    expect(w.sent()).to.have.length(3);
  });

  it("walks a queue's tree from the replies: greeting with its menu, a node's message with its children, a leaf hands over", async () => {
    const w = await botWorld();
    const quote = await w.option(w.sales, '1', { title: 'Orçamento', message: 'Qual produto?' });
    await w.option(w.sales, '1', { parentId: quote.id, title: 'Plantas', message: 'Um atendente já vem.' });
    await w.option(w.sales, '2', { parentId: quote.id, title: 'Vasos' });
    await w.option(w.sales, 'H', { kind: 'chatbot', title: 'Horários', message: 'Das 8h às 18h.' });
    await w.option(w.sales, '10', { title: 'Outros' });
    await w.say('oi');
    await w.say('sales');
    expect(w.sent().slice(2)).to.deep.equal(['Sales here.\n\n*1* - Orçamento\n*10* - Outros\n*H* - Horários']);
    expect(await w.ticket()).to.include({ queueId: w.sales.id, queueOptionId: null, botActive: true });
    await w.say(' *1* ');
    expect(w.sent().slice(3)).to.deep.equal(['Qual produto?\n\n*1* - Plantas\n*2* - Vasos']);
    expect(await w.ticket()).to.include({ queueOptionId: quote.id, botActive: true });
    await w.say('1');
    expect(w.sent().slice(4)).to.deep.equal(['Um atendente já vem.']);
    expect(await w.ticket()).to.include({ queueId: w.sales.id, botActive: false, status: 'pending' });
    await w.say('2');
    expect(w.sent()).to.have.length(5);

    const other = await botWorld();
    await other.option(other.sales, 'h', { kind: 'chatbot', title: 'Horários', message: 'Das 8h às 18h.' });
    await other.say('oi');
    await other.say('1');
    await other.say('H');
    expect(other.sent().slice(2)).to.deep.equal(['Sales here.\n\n*h* - Horários', 'Das 8h às 18h.']);
    expect(await other.ticket()).to.include({ botActive: false });
  });

  it('forwards to a queue, to an operator, or closes, as the picked option says', async () => {
    for (const [action, expected] of [
      ['queue', { queueId: 'support', status: 'pending', userId: null }],
      ['user', { queueId: 'sales', status: 'open', userId: 'ana' }],
      ['close', { queueId: 'sales', status: 'closed', userId: null }],
    ] as const) {
      const w = await botWorld();
      await w.option(w.sales, '1', {
        title: 'Go',
        message: `going (${action})`,
        ...(action === 'queue' ? { forwardQueueId: w.support.id } : {}),
        ...(action === 'user' ? { forwardUserId: w.ana.userId } : {}),
        ...(action === 'close' ? { closeTicket: true } : {}),
      });
      await w.say('oi');
      await w.say('1');
      await w.say('1');
      const t = await w.ticket();
      expect(t, action).to.include({
        queueId: expected.queueId === 'support' ? w.support.id : w.sales.id,
        status: expected.status,
        botActive: false,
        userId: expected.userId === 'ana' ? w.ana.userId : null,
      });
      expect(w.sent().pop()).to.equal(`going (${action})`);
      if (action === 'close') expect(t.closedAt).to.not.equal(null);
    }
  });

  it(`re-sends the menu after an invalid reply, ${MAX_BOT_RETRIES} times, then hands over to a human and stays quiet`, async () => {
    const w = await botWorld();
    await w.say('oi');
    for (let i = 1; i <= MAX_BOT_RETRIES; i++) {
      await w.say('what?');
      expect(await w.ticket()).to.include({ botAttempts: i, botActive: true });
    }
    await w.say('still lost');
    expect(await w.ticket()).to.include({ botActive: false, queueId: null, status: 'pending' });
    await w.say('1');
    expect(w.sent()).to.deep.equal(['Welcome!', MENU, MENU, MENU, MENU]);

    const q = await botWorld();
    await q.option(q.sales, '1', { title: 'Um' });
    await q.say('oi');
    await q.say('1');
    await q.say('9');
    await q.say('1');
    expect(q.sent().slice(2)).to.deep.equal(['Sales here.\n\n*1* - Um', 'Sales here.\n\n*1* - Um']);
    expect(await q.ticket()).to.include({ botActive: false, botAttempts: 0 });
  });

  it("a connection with exactly one queue assigns it directly: greeting, then the queue's greeting and menu", async () => {
    const w = await botWorld({ queues: 1 });
    await w.option(w.sales, '1', { title: 'Um' });
    await w.say('oi');
    expect(w.sent()).to.deep.equal(['Welcome!', 'Sales here.\n\n*1* - Um']);
    expect(await w.ticket()).to.include({ queueId: w.sales.id, botActive: true });

    const bare = await botWorld({ queues: 0, connection: { greetingMessage: null } });
    await bare.say('oi');
    expect(bare.sent()).to.deep.equal([]);
    expect(await bare.ticket()).to.include({ queueId: null, botActive: false });
  });

  it("out of the company's hours (FixedClock), the out-of-hours message goes out instead of greeting and menu", async () => {
    const w = await botWorld();
    await w.setting('scheduleType', 'company');
    w.ports.clock.advance(2 * 24 * 3600_000); // Saturday
    await w.say('oi');
    expect(w.sent()).to.deep.equal(['We are closed.']);
    expect(await w.ticket()).to.include({ botActive: false, queueId: null });
    await w.say('1');
    expect(w.sent()).to.have.length(1);

    const tokyo = await botWorld({ connection: { outOfHoursMessage: null } });
    await tokyo.setting('scheduleType', 'company');
    await tokyo.setting('outOfHoursMessage', 'Company closed.');
    await tokyo.setting('timezone', 'Asia/Tokyo'); // Thursday 21:00 there
    await tokyo.say('oi');
    expect(tokyo.sent()).to.deep.equal(['Company closed.']);

    const open = await botWorld();
    await open.setting('scheduleType', 'company'); // Thursday 09:00 in São Paulo
    await open.say('oi');
    expect(open.sent()).to.deep.equal(['Welcome!', MENU]);
  });

  it('with per-queue hours, a closed queue answers its out-of-hours message when the ticket enters it', async () => {
    const w = await botWorld();
    await w.setting('scheduleType', 'queue');
    await w.ports.queues.update({
      ...w.support,
      outOfHoursMessage: 'Support opens at 10.',
      schedules: [{ weekday: 'Quinta', weekdayEn: 'thursday', startTime: '10:00', endTime: '18:00' }],
    });
    await w.say('oi');
    expect(w.sent()).to.deep.equal(['Welcome!', MENU]);
    await w.say('2');
    expect(w.sent().pop()).to.equal('Support opens at 10.');
    expect(await w.ticket()).to.include({ queueId: w.support.id, botActive: false });
    const later = await botWorld();
    await later.setting('scheduleType', 'queue');
    await later.say('oi');
    await later.say('1');
    expect(later.sent().pop()).to.equal('Sales here.');
  });

  it('contacts with disableBot get only the greeting; groups get nothing', async () => {
    const w = await botWorld();
    const contact = await w.ports.contacts.getOrCreate({
      companyId: w.acme.id,
      name: 'Quiet',
      number: '5511988887777',
      email: null,
      isGroup: false,
      profilePicUrl: null,
      createdAt: w.ports.clock.now(),
      updatedAt: w.ports.clock.now(),
      disableBot: true,
    });
    await w.say('oi', { from: contact.number });
    await w.say('1', { from: contact.number });
    expect(w.sent()).to.deep.equal(['Welcome!']);
    expect(await w.ticket(contact.number)).to.include({ queueId: null, botActive: false });
    await w.say('oi', { from: '120363000000000001', isGroup: true });
    expect(w.sent()).to.have.length(1);
  });

  it('an operator taking, transferring or closing the ticket stops the bot', async () => {
    const w = await botWorld();
    await w.say('oi');
    const t = await w.ticket();
    await w.app.tickets.updateTicket.execute({ actor: w.admin, ticketId: t.id, queueId: w.sales.id });
    expect(await w.ticket()).to.include({ queueId: w.sales.id, botActive: false });
    await w.say('2');
    expect(w.sent()).to.deep.equal(['Welcome!', MENU]);
    expect(await w.ticket()).to.include({ queueId: w.sales.id });
  });
});
