import { QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import type { Schema } from '../src/api/client.js';
import { applyFrame, keys } from '../src/realtime/apply-frame.js';

type ListImport = Schema<'ContactListImport'>;
type Report = Schema<'CampaignReport'>;

const upload = (over: Partial<ListImport>): ListImport => ({
  importId: 5,
  contactListId: 2,
  fileName: 'list.csv',
  status: 'running',
  total: 1000,
  processed: 0,
  created: 0,
  duplicates: 0,
  invalid: 0,
  errors: [],
  error: null,
  startedAt: '2026-01-01T00:00:00Z',
  finishedAt: null,
  ...over,
});

describe('console: contact list and campaign frames', () => {
  it("moves a list upload with its progress frames, adding each batch's refused rows, and takes the final report whole", () => {
    const client = new QueryClient();
    client.setQueryData(keys.contactListImport(2), upload({ status: 'pending' }));
    client.setQueryData([...keys.contactLists, 'page', ''], { records: [] });
    const frame = (action: string, over: Partial<ListImport>) =>
      applyFrame(client, { seq: 1, event: 'company-1-contactListImport', data: { action, ...upload(over) } });
    frame('progress', { processed: 500, errors: [{ row: 3, reason: 'ERR_INVALID_NUMBER' }] });
    frame('progress', { processed: 1000, errors: [{ row: 700, reason: 'ERR_MISSING_NUMBER' }] });
    // A late, older frame changes nothing.
    frame('progress', { processed: 500, errors: [{ row: 3, reason: 'ERR_INVALID_NUMBER' }] });
    expect(client.getQueryData<ListImport>(keys.contactListImport(2))!.errors.map((e) => e.row)).to.deep.equal([3, 700]);
    expect(client.getQueryState([...keys.contactLists, 'page', ''])!.isInvalidated).to.equal(false);
    frame('done', {
      status: 'done',
      processed: 1000,
      created: 998,
      invalid: 2,
      errors: [
        { row: 3, reason: 'ERR_INVALID_NUMBER' },
        { row: 700, reason: 'ERR_MISSING_NUMBER' },
      ],
    });
    expect(client.getQueryData<ListImport>(keys.contactListImport(2))).to.deep.include({ status: 'done', created: 998 });
    expect(client.getQueryState([...keys.contactLists, 'page', ''])!.isInvalidated).to.equal(true);
  });

  it('reads the lists again on their frames, patches a campaign’s progress in place, and reads the campaigns again on a status change', () => {
    const client = new QueryClient();
    client.setQueryData([...keys.contactLists, 'items', 2, '', 1], { contacts: [] });
    applyFrame(client, { seq: 2, event: 'company-1-ContactListItem', data: { action: 'reload', contactListId: 2, records: [] } });
    expect(client.getQueryState([...keys.contactLists, 'items', 2, '', 1])!.isInvalidated).to.equal(true);

    const progress = {
      total: 20,
      pending: 20,
      sent: 0,
      delivered: 0,
      read: 0,
      failed: 0,
      skipped: 0,
      awaitingConfirmation: 0,
      confirmationRequested: 0,
      confirmed: 0,
      failedByReason: {},
      skippedByReason: {},
    };
    client.setQueryData(keys.campaign(9), { id: 9, status: 'EM_ANDAMENTO', progress } as unknown as Report);
    applyFrame(client, {
      seq: 3,
      event: 'company-1-campaignProgress',
      data: { action: 'progress', id: 9, status: 'EM_ANDAMENTO', progress: { ...progress, pending: 5, sent: 15 } },
    });
    expect(client.getQueryData<Report>(keys.campaign(9))!.progress).to.include({ pending: 5, sent: 15 });
    expect(client.getQueryState(keys.campaign(9))!.isInvalidated).to.equal(false);
    applyFrame(client, { seq: 4, event: 'company-1-campaign', data: { action: 'update', record: { id: 9, status: 'FINALIZADA' } } });
    expect(client.getQueryState(keys.campaign(9))!.isInvalidated).to.equal(true);
  });
});
