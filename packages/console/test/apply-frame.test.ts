import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import type { Schema } from '../src/api/client.js';
import { applyFrame, keys, reloadEverything } from '../src/realtime/apply-frame.js';

type MessagePage = Schema<'TicketMessagePage'>;
type Connection = Schema<'Connection'>;

const message = (id: string, extra: Partial<Schema<'Message'>> = {}) =>
  ({ id, ticketId: 7, body: id, status: 'sent', fromMe: true, ...extra }) as Schema<'Message'>;
const page = (ids: string[]) => ({ messages: ids.map((id) => message(id)), count: ids.length, hasMore: false, ticket: { id: 7 } }) as unknown as MessagePage;

describe('console: frames applied to what the screens show', () => {
  it("appends a new message to its conversation once, and updates a message's delivery in place", () => {
    const client = new QueryClient();
    client.setQueryData<InfiniteData<MessagePage>>(keys.messages(7), { pages: [page(['a', 'b'])], pageParams: [1] });
    const created = { seq: 1, event: 'company-1-appMessage', data: { action: 'create', message: message('c') } };
    applyFrame(client, created);
    applyFrame(client, created);
    applyFrame(client, { seq: 2, event: 'company-1-appMessage', data: { action: 'update', message: message('a', { status: 'read' }) } });
    const data = client.getQueryData<InfiniteData<MessagePage>>(keys.messages(7))!;
    expect(data.pages[0]!.messages.map((m) => `${m.id}:${m.status}`)).to.deep.equal(['a:read', 'b:sent', 'c:sent']);
  });

  it('keeps the ticket of a frame and marks the ticket lists stale at once', () => {
    const client = new QueryClient();
    client.setQueryData(keys.ticketList({ status: 'open' }), { pages: [], pageParams: [] });
    applyFrame(client, { seq: 3, event: 'company-1-ticket', data: { action: 'update', ticket: { id: 9, status: 'open' } } });
    expect(client.getQueryData(keys.ticket(9))).to.deep.equal({ id: 9, status: 'open' });
    expect(client.getQueryState(keys.ticketList({ status: 'open' }))!.isInvalidated).to.equal(true);
  });

  it("follows a connection's session status (the QR code included) and its deletion", () => {
    const client = new QueryClient();
    client.setQueryData<Connection[]>(keys.connections, [{ id: 1, status: 'DISCONNECTED', qrcode: '' } as Connection]);
    applyFrame(client, { seq: 4, event: 'company-1-chatappSession', data: { action: 'update', session: { id: 1, status: 'qrcode', qrcode: 'QR-DATA' } } });
    expect(client.getQueryData<Connection[]>(keys.connections)![0]).to.include({ status: 'qrcode', qrcode: 'QR-DATA' });
    applyFrame(client, { seq: 5, event: 'company-1-chatapp', data: { action: 'delete', chatappId: 1 } });
    expect(client.getQueryData<Connection[]>(keys.connections)).to.deep.equal([]);
  });

  it('a quick reply created, changed or deleted makes every search of them stale, and nothing else', () => {
    const client = new QueryClient();
    client.setQueryData(keys.companyTemplateList(''), { templates: [], count: 0, hasMore: false });
    client.setQueryData(keys.companyTemplateList('boas'), { templates: [], count: 0, hasMore: false });
    client.setQueryData(keys.connections, []);
    applyFrame(client, { seq: 6, event: 'company-1-companyTemplate', data: { action: 'delete', id: 3 } });
    expect(client.getQueryState(keys.companyTemplateList(''))!.isInvalidated).to.equal(true);
    expect(client.getQueryState(keys.companyTemplateList('boas'))!.isInvalidated).to.equal(true);
    expect(client.getQueryState(keys.connections)!.isInvalidated).to.equal(false);
  });

  it("a queue integration's frame makes the integrations screen's searches and the queues' picker stale, not the queues", () => {
    const client = new QueryClient();
    client.setQueryData([...keys.queueIntegrations, ''], { pages: [], pageParams: [] });
    client.setQueryData([...keys.queueIntegrations, 'sales'], { pages: [], pageParams: [] });
    client.setQueryData([...keys.queues, 'integrations'], { queueIntegrations: [], count: 0, hasMore: false });
    client.setQueryData(keys.queues, []);
    applyFrame(client, { seq: 7, event: 'company-1-queueIntegration', data: { action: 'delete', integrationId: 5 } });
    expect(client.getQueryState([...keys.queueIntegrations, ''])!.isInvalidated).to.equal(true);
    expect(client.getQueryState([...keys.queueIntegrations, 'sales'])!.isInvalidated).to.equal(true);
    expect(client.getQueryState([...keys.queues, 'integrations'])!.isInvalidated).to.equal(true);
    expect(client.getQueryState(keys.queues)!.isInvalidated).to.equal(false);
  });

  it('reloads everything after a resync', () => {
    const client = new QueryClient();
    client.setQueryData(keys.connections, []);
    client.setQueryData(keys.ticket(1), { id: 1 });
    reloadEverything(client);
    expect(client.getQueryState(keys.connections)!.isInvalidated).to.equal(true);
    expect(client.getQueryState(keys.ticket(1))!.isInvalidated).to.equal(true);
  });
});
