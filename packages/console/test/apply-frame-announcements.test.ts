import { QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import { applyFrame, keys } from '../src/realtime/apply-frame.js';

describe('console: the announcements’ frames', () => {
  it('reads the banner’s and the super users’ lists again on a company-announcement frame, and nothing else', () => {
    const client = new QueryClient();
    const banner = [...keys.announcements, 'shown', 3];
    const page = [...keys.announcements, 'page', ''];
    for (const [seq, action] of [
      [1, 'create'],
      [2, 'delete'],
    ] as const) {
      client.clear();
      client.setQueryData(banner, []);
      client.setQueryData(page, { pages: [], pageParams: [] });
      client.setQueryData(keys.company(3), { id: 3, schedules: [] });
      applyFrame(client, { seq, event: 'company-announcement', data: action === 'delete' ? { action, id: 7 } : { action, record: { id: 7 } } });
      expect(client.getQueryState(banner)!.isInvalidated, action).to.equal(true);
      expect(client.getQueryState(page)!.isInvalidated, action).to.equal(true);
      // Not mistaken for the company's own `company` frame.
      expect(client.getQueryState(keys.company(3))!.isInvalidated, action).to.equal(false);
    }
  });
});
