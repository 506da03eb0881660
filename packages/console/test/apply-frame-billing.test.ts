import { QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import { applyFrame, keys } from '../src/realtime/apply-frame.js';

describe('console: the subscription screen’s frames', () => {
  it('reads the invoices and the company (its plan and due date) again when the gateway confirms a payment, and nothing else', () => {
    const client = new QueryClient();
    client.setQueryData(keys.invoices, { pages: [{ invoices: [{ id: 7, status: 'open' }], count: 1, hasMore: false }], pageParams: [1] });
    client.setQueryData([...keys.company(1), 'plan'], { id: 1, dueDate: '2026-11-23' });
    client.setQueryData(keys.tags, []);
    applyFrame(client, {
      seq: 1,
      event: 'company-1-payment',
      data: { action: 'CONCLUIDA', company: { id: 1, dueDate: '2027-01-03' }, invoice: { id: 7, status: 'paid' } },
    });
    expect(client.getQueryState(keys.invoices)!.isInvalidated).to.equal(true);
    expect(client.getQueryState([...keys.company(1), 'plan'])!.isInvalidated).to.equal(true);
    expect(client.getQueryState(keys.tags)!.isInvalidated).to.equal(false);
  });
});
