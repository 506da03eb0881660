import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import type { Schema } from '../src/api/client.js';
import { applyFrame, keys } from '../src/realtime/apply-frame.js';
import { belongsIn, placeTicket } from '../src/realtime/ticket-lists.js';

type Ticket = Schema<'TicketDetails'>;
type TicketPage = { tickets: Ticket[]; count: number; hasMore: boolean };

const at = (minute: number) => new Date(Date.UTC(2026, 11, 2, 12, minute)).toISOString();
const ticket = (id: number, minute: number, extra: Partial<Ticket> = {}) =>
  ({ id, status: 'open', queueId: 1, userId: 5, updatedAt: at(minute), ...extra }) as Ticket;
const pages = (...lists: Array<{ ids: Ticket[]; hasMore: boolean }>): InfiniteData<TicketPage> => ({
  pages: lists.map((l) => ({ tickets: l.ids, count: lists.reduce((n, x) => n + x.ids.length, 0) + (lists.at(-1)!.hasMore ? 10 : 0), hasMore: l.hasMore })),
  pageParams: lists.map((_, i) => i + 1),
});
const ids = (client: QueryClient, query: object) =>
  client.getQueryData<InfiniteData<TicketPage>>(keys.ticketList(query))!.pages.map((p) => p.tickets.map((t) => t.id));
const count = (client: QueryClient, query: object) => client.getQueryData<InfiniteData<TicketPage>>(keys.ticketList(query))!.pages[0]!.count;

describe('console: a ticket from a frame placed in the loaded lists', () => {
  it('judges only the filters it can evaluate', () => {
    expect(belongsIn({ status: 'open' }, ticket(1, 0))).to.equal(true);
    expect(belongsIn({ status: 'pending' }, ticket(1, 0))).to.equal(false);
    expect(belongsIn({ status: 'open', queueIds: [2] }, ticket(1, 0))).to.equal(false);
    expect(belongsIn({ status: 'open', users: [5], showAll: 'true' }, ticket(1, 0))).to.equal(true);
    expect(belongsIn({ status: 'open', users: [6] }, ticket(1, 0))).to.equal(false);
    expect(belongsIn({ status: 'search', searchParam: 'maria' }, ticket(1, 0))).to.equal(undefined);
  });

  it('moves a ticket with a new message to the head of its list, its count unchanged', () => {
    const client = new QueryClient();
    const open = { status: 'open' };
    client.setQueryData(keys.ticketList(open), pages({ ids: [ticket(1, 9), ticket(2, 8), ticket(3, 7)], hasMore: false }));
    placeTicket(client, ticket(3, 10, { lastMessage: 'new' }));
    expect(ids(client, open)).to.deep.equal([[3, 1, 2]]);
    expect(count(client, open)).to.equal(3);
  });

  it('adds a new ticket to the lists whose filters it meets, and leaves the others alone', () => {
    const client = new QueryClient();
    const pending = { status: 'pending' };
    const otherQueue = { status: 'pending', queueIds: [2] };
    const open = { status: 'open' };
    client.setQueryData(keys.ticketList(pending), pages({ ids: [ticket(1, 9, { status: 'pending' })], hasMore: false }));
    client.setQueryData(keys.ticketList(otherQueue), pages({ ids: [], hasMore: false }));
    client.setQueryData(keys.ticketList(open), pages({ ids: [ticket(2, 5)], hasMore: false }));
    placeTicket(client, ticket(7, 10, { status: 'pending' }));
    expect(ids(client, pending)).to.deep.equal([[7, 1]]);
    expect(count(client, pending)).to.equal(2);
    expect(ids(client, otherQueue)).to.deep.equal([[]]);
    expect(ids(client, open)).to.deep.equal([[2]]);
  });

  it('takes an accepted ticket out of pending and into open', () => {
    const client = new QueryClient();
    const pending = { status: 'pending' };
    const open = { status: 'open' };
    client.setQueryData(keys.ticketList(pending), pages({ ids: [ticket(1, 9, { status: 'pending' }), ticket(2, 8, { status: 'pending' })], hasMore: false }));
    client.setQueryData(keys.ticketList(open), pages({ ids: [ticket(3, 7)], hasMore: false }));
    placeTicket(client, ticket(2, 11));
    expect(ids(client, pending)).to.deep.equal([[1]]);
    expect(count(client, pending)).to.equal(1);
    expect(ids(client, open)).to.deep.equal([[2, 3]]);
    expect(count(client, open)).to.equal(2);
  });

  it('leaves a ticket that sorts after every loaded row to the pages not yet fetched', () => {
    const client = new QueryClient();
    const open = { status: 'open' };
    client.setQueryData(keys.ticketList(open), pages({ ids: [ticket(1, 9), ticket(2, 8)], hasMore: true }));
    placeTicket(client, ticket(9, 1));
    expect(ids(client, open)).to.deep.equal([[1, 2]]);
    placeTicket(client, ticket(9, 8));
    expect(ids(client, open), 'same time: the higher id first').to.deep.equal([[1, 9, 2]]);
  });

  it('only replaces a row in place in a search it cannot judge, and leaves the counts of tabs alone', () => {
    const client = new QueryClient();
    const search = { status: 'search', searchParam: 'maria' };
    client.setQueryData(keys.ticketList(search), pages({ ids: [ticket(1, 9), ticket(2, 8)], hasMore: false }));
    client.setQueryData(['tickets', 'count', { status: 'open' }], { count: 4 });
    placeTicket(client, ticket(2, 12, { lastMessage: 'changed' }));
    placeTicket(client, ticket(3, 12));
    expect(ids(client, search)).to.deep.equal([[1, 2]]);
    expect(client.getQueryData<InfiniteData<TicketPage>>(keys.ticketList(search))!.pages[0]!.tickets[1]!.lastMessage).to.equal('changed');
    expect(client.getQueryData(['tickets', 'count', { status: 'open' }])).to.deep.equal({ count: 4 });
  });

  it("an inbound message's frame reorders the list before any refetch, and the refetch starts at once", () => {
    const client = new QueryClient();
    const open = { status: 'open' };
    client.setQueryData(keys.ticketList(open), pages({ ids: [ticket(1, 9), ticket(2, 8)], hasMore: false }));
    applyFrame(client, {
      seq: 1,
      event: 'company-1-appMessage',
      data: { action: 'create', message: { id: 'm', ticketId: 2 }, ticket: ticket(2, 13, { lastMessage: 'oi', unreadMessages: 1 }) },
    });
    expect(ids(client, open)).to.deep.equal([[2, 1]]);
    expect(client.getQueryState(keys.ticketList(open))!.isInvalidated).to.equal(true);
  });
});
