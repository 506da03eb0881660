import { QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import { applyFrame, keys } from '../src/realtime/apply-frame.js';

describe('console: the flows’ frames', () => {
  it('reads the flows list and an open flow again on each flow frame, and nothing else', () => {
    const client = new QueryClient();
    const page = [...keys.flows, 'page', ''];
    for (const [seq, data] of [
      [1, { action: 'create', flow: { id: 3 } }],
      [2, { action: 'update', flow: { id: 3, version: 4 } }],
      [3, { action: 'publish', flow: { id: 3 }, version: 1 }],
      [4, { action: 'delete', flowId: 3 }],
    ] as const) {
      client.clear();
      client.setQueryData(page, { pages: [], pageParams: [] });
      client.setQueryData(keys.flow(3), { id: 3, version: 3 });
      client.setQueryData(keys.tags, []);
      applyFrame(client, { seq, event: 'company-1-flow', data });
      expect(client.getQueryState(page)!.isInvalidated, data.action).to.equal(true);
      expect(client.getQueryState(keys.flow(3))!.isInvalidated, data.action).to.equal(true);
      expect(client.getQueryState(keys.tags)!.isInvalidated, data.action).to.equal(false);
    }
  });
});
