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

  it("refetches the contacts screen's pages when a contact changes, and when another admin's import is done", () => {
    const client = new QueryClient();
    const page = [...keys.contacts, { searchParam: '', tagId: null }, 1];
    client.setQueryData(page, { contacts: [], count: 0, hasMore: false });
    applyFrame(client, { seq: 1, event: 'company-1-contact', data: { action: 'create', contact: { id: 9, name: 'Ana' } } });
    expect(client.getQueryState(page)!.isInvalidated).to.equal(true);
    client.setQueryData(page, { contacts: [], count: 1, hasMore: false });
    applyFrame(client, { seq: 2, event: 'company-1-contactImport', data: { ...importStatus, action: 'progress', processed: 500 } });
    expect(client.getQueryState(page)!.isInvalidated).to.equal(false);
    applyFrame(client, { seq: 3, event: 'company-1-contactImport', data: { ...importStatus, action: 'done', status: 'done', processed: 1000 } });
    expect(client.getQueryState(page)!.isInvalidated).to.equal(true);
  });

  it("moves an import's progress with its frames: counts replaced, each batch's refused rows added, the report taking over at the end", () => {
    const client = new QueryClient();
    const key = keys.contactImport('imp-1');
    client.setQueryData<ImportStatus>(key, importStatus);
    const progress = (seq: number, processed: number, errors: ImportStatus['errors']) =>
      applyFrame(client, { seq, event: 'company-1-contactImport', data: { ...importStatus, action: 'progress', processed, failed: errors.length, errors } });
    progress(1, 500, [{ row: 3, reason: 'ERR_INVALID_NUMBER' }]);
    progress(2, 1000, [{ row: 700, reason: 'ERR_INVALID_EMAIL' }]);
    progress(3, 500, [{ row: 3, reason: 'ERR_INVALID_NUMBER' }]); // late and older: ignored
    expect(client.getQueryData<ImportStatus>(key)).to.deep.include({ processed: 1000, status: 'running' });
    expect(client.getQueryData<ImportStatus>(key)!.errors.map((e) => e.row)).to.deep.equal([3, 700]);
    const errors = [
      { row: 3, reason: 'ERR_INVALID_NUMBER' },
      { row: 700, reason: 'ERR_INVALID_EMAIL' },
    ];
    applyFrame(client, {
      seq: 4,
      event: 'company-1-contactImport',
      data: { ...importStatus, action: 'done', status: 'done', processed: 1000, failed: 2, errors },
    });
    expect(client.getQueryData<ImportStatus>(key)).to.deep.include({ status: 'done', processed: 1000, failed: 2, errors });
    expect(client.getQueryData(key)).not.to.have.property('action');
  });
});

type ImportStatus = Schema<'ContactImportStatus'>;
const importStatus: ImportStatus = {
  importId: 'imp-1',
  source: 'file',
  fileName: 'contacts.csv',
  status: 'running',
  total: 1000,
  processed: 0,
  created: 0,
  merged: 0,
  failed: 0,
  errors: [],
  errorsTruncated: false,
  error: null,
  startedAt: '2026-12-02T21:00:00.000Z',
  finishedAt: null,
};
