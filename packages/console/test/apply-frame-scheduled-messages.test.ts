import { QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import { applyFrame, keys } from '../src/realtime/apply-frame.js';

describe('console: the scheduled messages’ frames', () => {
  it('reads the list and an open sends dialog again on a scheduledMessage frame, and leaves the contact schedules alone', () => {
    const client = new QueryClient();
    const page = [...keys.scheduledMessages, 'page', ''];
    const sends = [...keys.scheduledMessages, 'one', 7];
    const schedules = ['schedules', 'page'];
    for (const [seq, data] of [
      [1, { action: 'create', scheduledMessage: { id: 7 } }],
      [2, { action: 'update', scheduledMessage: { id: 7, status: 'ENVIADA' } }],
      [3, { action: 'delete', scheduleId: 7 }],
    ] as const) {
      client.clear();
      client.setQueryData(page, { pages: [], pageParams: [] });
      client.setQueryData(sends, { id: 7, occurrences: [] });
      client.setQueryData(schedules, { pages: [], pageParams: [] });
      applyFrame(client, { seq, event: 'company-1-scheduledMessage', data });
      expect(client.getQueryState(page)!.isInvalidated, data.action).to.equal(true);
      expect(client.getQueryState(sends)!.isInvalidated, data.action).to.equal(true);
      expect(client.getQueryState(schedules)!.isInvalidated, data.action).to.equal(false);
    }
  });
});
