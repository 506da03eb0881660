import { QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import { applyFrame, keys } from '../src/realtime/apply-frame.js';

describe('console: the settings screen’s frames', () => {
  it('reads the settings list again on a settings frame, and the company’s record (its hours) on its company frame', () => {
    const client = new QueryClient();
    client.setQueryData(keys.settingList, [{ key: 'userRating', value: 'disabled' }]);
    client.setQueryData(keys.company(1), { id: 1, schedules: [] });
    applyFrame(client, { seq: 1, event: 'company-1-settings', data: { action: 'update', setting: { key: 'userRating', value: 'enabled' } } });
    expect(client.getQueryState(keys.settingList)!.isInvalidated).to.equal(true);
    expect(client.getQueryState(keys.company(1))!.isInvalidated).to.equal(false);
    applyFrame(client, { seq: 2, event: 'company-1-company', data: { action: 'update', company: { id: 1, schedules: [] } } });
    expect(client.getQueryState(keys.company(1))!.isInvalidated).to.equal(true);
  });
});
