import { expect } from 'chai';
import { admits, audienceOf, type Actor, type RealtimeEvent, type Ticket, type TicketAccess } from '../../src/index.js';

const user = (queueIds: number[]): TicketAccess => ({ actor: { userId: 10, companyId: 1, profile: 'user' }, seesAll: false, queueIds });
const admin: TicketAccess = { actor: { userId: 1, companyId: 1, profile: 'admin' } as Actor, seesAll: true, queueIds: [] };
const allTicket: TicketAccess = { actor: { userId: 11, companyId: 1, profile: 'user' }, seesAll: true, queueIds: [] };

describe('Realtime audience: the HTTP read rule of each event', () => {
  const stored = new Map<number, Ticket>([
    [1, { id: 1, companyId: 1, queueId: 7, userId: null, status: 'pending' } as Ticket],
    [2, { id: 2, companyId: 1, queueId: 8, userId: 99, status: 'open' } as Ticket],
  ]);
  const deps = { tickets: { findById: async (_c: number, id: number) => stored.get(id) ?? null } };
  const of = (event: RealtimeEvent) => audienceOf(deps, 1, event);
  const ticketView = (t: Ticket) => ({ ...t, createdAt: '', updatedAt: '', closedAt: null }) as any;

  it('applies the ticket rule to ticket and message events, looking the ticket up when the payload lacks it', async () => {
    const created = await of({
      entity: 'appMessage',
      data: { action: 'create', message: { ticketId: 1 } as any, ticket: ticketView(stored.get(1)!), contact: null },
    });
    expect([admits(user([7]), created), admits(user([8]), created), admits(admin, created)]).to.deep.equal([true, false, true]);
    const updated = await of({ entity: 'appMessage', data: { action: 'update', message: { ticketId: 2 } as any } });
    expect(updated).to.deep.equal({ kind: 'ticket', ticket: { id: 2, queueId: 8, userId: 99, status: 'open' } });
    expect([
      admits(user([8]), updated),
      admits({ ...user([]), actor: { userId: 99, companyId: 1, profile: 'user' } }, updated),
      admits(allTicket, updated),
    ]).to.deep.equal([false, true, true]);
    const gone = await of({ entity: 'appMessage', data: { action: 'update', message: { ticketId: 3 } as any } });
    expect([admits(user([7]), gone), admits(allTicket, gone)]).to.deep.equal([false, true]);
  });

  it('narrows a bulk close per user; a deleted ticket reaches those who see all; integrations reach admins; the rest is company-wide', async () => {
    const many = await of({ entity: 'ticket', data: { action: 'closeMany', ticketIds: [1, 2, 3], status: 'closed' } });
    expect([admits(user([7]), many), admits(user([9]), many), admits(admin, many)]).to.deep.equal([[1], false, true]);
    const deleted = await of({ entity: 'ticket', data: { action: 'delete', ticketId: 1 } });
    expect([admits(user([7]), deleted), admits(allTicket, deleted)]).to.deep.equal([false, true]);
    const integration = await of({ entity: 'queueIntegration', data: { action: 'delete', integrationId: 1 } });
    expect([admits(allTicket, integration), admits(admin, integration)]).to.deep.equal([false, true]);
    const setting = await of({ entity: 'settings', data: { action: 'update', setting: { key: 'k', value: 'v' } } });
    expect(admits(user([]), setting)).to.equal(true);
    expect(admits(user([]), { kind: 'users', userIds: [10] })).to.equal(true);
    expect(admits(user([]), { kind: 'users', userIds: [11] })).to.equal(false);
  });
});
