import { QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import { applyFrame, keys } from '../src/realtime/apply-frame.js';

describe('console: the object-store configs’ frames', () => {
  it('reads the storage screen’s list again on each objstoreConfig frame, and nothing else', () => {
    const client = new QueryClient();
    const config = { id: 3, name: 'MinIO', active: true };
    for (const [seq, data] of [
      [1, { action: 'create', config }],
      [2, { action: 'update', config: { ...config, active: false } }],
      [3, { action: 'delete', configId: 3 }],
    ] as const) {
      client.clear();
      client.setQueryData(keys.objstoreConfigs, [config]);
      client.setQueryData(keys.tags, []);
      applyFrame(client, { seq, event: 'company-1-objstoreConfig', data });
      expect(client.getQueryState(keys.objstoreConfigs)!.isInvalidated, data.action).to.equal(true);
      expect(client.getQueryState(keys.tags)!.isInvalidated, data.action).to.equal(false);
    }
  });
});
