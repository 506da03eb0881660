import { QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import type { Schema } from '../src/api/client.js';
import { applyFrame, keys } from '../src/realtime/apply-frame.js';

type Ticket = Schema<'TicketDetails'>;
type ContactDetails = Schema<'ContactDetails'>;

const vip = { id: 3, name: 'VIP', color: '#aa8800', kanban: false };
const ticket = (id: number, contactId: number) =>
  ({ id, contactId, tags: [], contact: { id: contactId, name: 'Maria', number: '5511988880001', blocked: false, tags: [vip] } }) as unknown as Ticket;

describe('console: contact, tag and settings frames', () => {
  it("follows a contact's change in its panel and in every ticket shown with it, keeping the tags they carry", () => {
    const client = new QueryClient();
    client.setQueryData(keys.ticket(1), ticket(1, 7));
    client.setQueryData(keys.ticket(2), ticket(2, 8));
    client.setQueryData(keys.contact(7), { id: 7, name: 'Maria', blocked: false, identifiers: [], tags: [vip] } as unknown as ContactDetails);
    applyFrame(client, { seq: 1, event: 'company-1-contact', data: { action: 'update', contact: { id: 7, name: 'Maria Souza', blocked: true } } });
    expect(client.getQueryData<Ticket>(keys.ticket(1))!.contact).to.deep.include({ name: 'Maria Souza', blocked: true, tags: [vip] });
    expect(client.getQueryData<Ticket>(keys.ticket(2))!.contact).to.include({ name: 'Maria' });
    expect(client.getQueryData<ContactDetails>(keys.contact(7))).to.deep.include({ name: 'Maria Souza', blocked: true, identifiers: [], tags: [vip] });
  });

  it("sets a contact's new tags, and refreshes the tag pickers when a tag itself changes", () => {
    const client = new QueryClient();
    client.setQueryData(keys.ticket(1), ticket(1, 7));
    client.setQueryData(keys.tags, [vip]);
    applyFrame(client, { seq: 2, event: 'company-1-tag', data: { action: 'contact', contactId: 7, tags: [] } });
    expect(client.getQueryData<Ticket>(keys.ticket(1))!.contact!.tags).to.deep.equal([]);
    expect(client.getQueryState(keys.tags)!.isInvalidated).to.equal(false);
    applyFrame(client, { seq: 3, event: 'company-1-tag', data: { action: 'delete', tagId: 3 } });
    expect(client.getQueryState(keys.tags)!.isInvalidated).to.equal(true);
  });

  it('drops a deleted contact, and reads the settings and users again when they change', () => {
    const client = new QueryClient();
    client.setQueryData(keys.contact(7), { id: 7 });
    client.setQueryData(keys.setting('userRating'), { key: 'userRating', value: 'disabled' });
    client.setQueryData(keys.users, []);
    applyFrame(client, { seq: 4, event: 'company-1-contact', data: { action: 'delete', contactId: 7 } });
    applyFrame(client, { seq: 5, event: 'company-1-settings', data: { action: 'update', setting: { key: 'userRating', value: 'enabled' } } });
    applyFrame(client, { seq: 6, event: 'company-1-user', data: { action: 'update', user: { id: 2 } } });
    expect(client.getQueryData(keys.contact(7))).to.equal(undefined);
    expect(client.getQueryState(keys.setting('userRating'))!.isInvalidated).to.equal(true);
    expect(client.getQueryState(keys.users)!.isInvalidated).to.equal(true);
  });
});
