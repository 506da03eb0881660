import { expect } from 'chai';
import { CampaignConversations, createApplication, OutboundCampaignSender, sendPath } from '../../src/index.js';
import { createInMemoryPorts } from '../../src/testing.js';
import { TicketPresenter } from '../../src/tickets/ticket-details.js';
import { ConversationAnnouncer } from '../../src/tickets/conversation-announcer.js';
import { companyFixture, planFixture, userFixture } from '../contracts/repositories-contract.js';
import { dayStartIn, eachDay, localDay, localHour } from '../../src/dashboards/days.js';
import { rangeOf } from '../../src/dashboards/dashboard-scope.js';
import { changeOf } from '../../src/tickets/ticket-tracking.js';
import { csvCell, numberPrefixes } from '../../src/dashboards/contacts-report.js';
import { describeDashboardsContract } from '../contracts/dashboards-contract.js';
import { connectionFixture, ticketDraft } from '../contracts/messaging-contract.js';

describeDashboardsContract('in-memory', async () => ({ ports: createInMemoryPorts() }));

describe("Dashboards: days on a company's clock", () => {
  it('a day of the change to daylight time lasts 23 hours, the day back 25; instants fall on their local day', () => {
    const zone = 'America/New_York';
    const hours = (day: string, next: string) => (dayStartIn(next, zone).getTime() - dayStartIn(day, zone).getTime()) / 3_600_000;
    expect(hours('2026-03-08', '2026-03-09')).to.equal(23);
    expect(hours('2026-11-01', '2026-11-02')).to.equal(25);
    expect(localDay(new Date('2026-03-09T04:30:00Z'), zone)).to.equal('2026-03-09');
    expect(localDay(new Date('2026-03-09T03:59:59Z'), zone)).to.equal('2026-03-08');
    expect(localHour(new Date('2026-11-01T05:30:00Z'), zone)).to.equal(1);
    expect(localHour(new Date('2026-11-01T06:30:00Z'), zone)).to.equal(1);
    expect(eachDay('2026-02-27', '2026-03-02')).to.deep.equal(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
  });

  it('a range is whole local days: dates win over `days`, which counts back from today', () => {
    const now = new Date('2026-03-10T03:00:00Z'); // 23:00 on the 9th in New York
    expect(rangeOf({ days: 2 }, now, 'America/New_York')).to.deep.include({ fromDay: '2026-03-08', toDay: '2026-03-09' });
    const r = rangeOf({ dateFrom: '2026-03-08', dateTo: '2026-03-08', days: 5 }, now, 'America/New_York');
    expect([r.from.toISOString(), r.to.toISOString()]).to.deep.equal(['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
    expect(rangeOf({ dateTo: '2026-03-31' }, now, 'UTC')).to.deep.include({ fromDay: '2026-03-02', toDay: '2026-03-31' });
  });
});

describe('Ticket tracking: what a change does to a cycle', () => {
  const t = (over: object) => ({
    ...ticketDraft({ companyId: 1, contactId: 1, connectionId: 1, uuid: 'u' }),
    id: 1,
    queueOptionId: null,
    botAttempts: 0,
    botActive: false,
    ...over,
  });
  const at = new Date('2026-03-01T00:00:00Z');
  it('taking an unassigned ticket accepts it; handing it on is a transfer; routing a new ticket to its first queue is neither', () => {
    expect(changeOf({ status: 'pending', userId: null, queueId: 2 }, t({ status: 'open', userId: 5, queueId: 2 }), at)).to.deep.equal({
      queueId: 2,
      userId: 5,
      at,
      accepted: true,
    });
    expect(changeOf({ status: 'open', userId: 5, queueId: 2 }, t({ status: 'open', userId: 6, queueId: 2 }), at)).to.deep.include({
      accepted: true,
      transferred: true,
    });
    expect(changeOf({ status: 'pending', userId: null, queueId: null }, t({ status: 'pending', userId: null, queueId: 3 }), at)).to.deep.equal({
      queueId: 3,
      userId: null,
      at,
    });
    expect(changeOf({ status: 'pending', userId: null, queueId: 3 }, t({ status: 'pending', userId: null, queueId: 4 }), at)).to.deep.include({
      transferred: true,
    });
    expect(changeOf({ status: 'open', userId: 5, queueId: null }, t({ status: 'closed', userId: 5, queueId: null }), at, 4)).to.deep.equal({
      queueId: null,
      userId: 5,
      at,
      closed: true,
      rating: 4,
    });
    expect(changeOf({ status: 'open', userId: 5, queueId: null }, t({ status: 'open', userId: 5, queueId: null }), at)).to.equal(null);
  });
});

describe('Contacts report: cells and states', () => {
  it('quotes what needs it and neutralises formulas; states expand to their area codes', () => {
    expect(csvCell('plain')).to.equal('plain');
    expect(csvCell('a "b", c')).to.equal('"a ""b"", c"');
    expect(csvCell('=1+1')).to.equal("'=1+1");
    expect(csvCell('-2')).to.equal("'-2");
    expect(numberPrefixes(['es', '11'])).to.deep.equal(['5511', '5527', '5528']);
    expect(() => numberPrefixes(['XX'])).to.throw();
  });
});

describe('Ticket tracking: tickets we open through the send paths', () => {
  it('a campaign that opens a ticket starts a cycle of ours; one that only sends (closed ticket) starts none; an API send opens and closes one', async () => {
    const ports = createInMemoryPorts();
    const plan = await ports.plans.add(planFixture('P'));
    const company = await ports.companies.add(companyFixture(plan.id, 'Acme'));
    const ana = await ports.users.add(userFixture(company.id, 'ana@acme.test'));
    const connection = await ports.connections.add(connectionFixture(company.id, 'Main', { status: 'CONNECTED' }));
    const presenter = new TicketPresenter({ ...ports });
    const sender = new OutboundCampaignSender({
      ...ports,
      conversations: new CampaignConversations({ ...ports, tracking: ports.ticketTracking }),
      outbound: sendPath(ports).outbound,
      announcer: new ConversationAnnouncer({ ...ports, presenter }),
    });
    const send = (number: string, openTicket: boolean) =>
      ports.tx.run(() =>
        sender.send({
          companyId: company.id,
          connectionId: connection.id,
          campaignId: 1,
          recipientId: 1,
          idempotencyKey: number,
          number,
          name: 'Lead',
          contactId: null,
          body: 'Promoção',
          media: null,
          openTicket,
          statusTicket: 'open',
          userId: ana.id,
          queueId: null,
        }),
      );
    await send('5511900000010', true);
    await send('5511900000011', false);
    const cycles = ports.ticketCycles.table.filter(() => true);
    expect(cycles.map((c) => [c.outbound, c.userId, c.acceptedAt !== null, c.closedAt])).to.deep.equal([[true, ana.id, true, null]]);
    const app = createApplication(ports);
    const at = ports.clock.now();
    await app.conversations.sendApiMessage.execute({ connection, number: '5511900000012', body: 'Seu pedido saiu', closeTicket: true });
    const api = ports.ticketCycles.table.filter((c) => c.startedAt.getTime() === at.getTime() && c.contactId !== cycles[0]!.contactId);
    expect(api.map((c) => [c.outbound, c.closedAt?.getTime()])).to.deep.equal([[true, at.getTime()]]);
  });
});
