import { expect } from 'chai';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import type { Connection } from '@servicedesk/core';
import { NatsChannelQueries, NatsQueryResponder } from '../src/index.js';

describe('Number checks over NATS request/reply', () => {
  const url = integrationUrl('TEST_NATS_URL');
  before(function () {
    if (!url) this.skip();
  });

  it('reaches the runtime holding the session, and says so when none does', async () => {
    const prefix = `test.q.${Math.random().toString(36).slice(2, 8)}`;
    const backend = await NatsChannelQueries.connect(url!, prefix);
    const runtime = await NatsQueryResponder.connect(url!, prefix);
    try {
      const connection = { id: 42 } as Connection;
      expect(await backend.queries.checkNumber(connection, '5511999990000').catch((e) => e.code)).to.equal('ERR_SESSION_NOT_CONNECTED');
      const detach = runtime.responder.attach(42, async (n) => ({ exists: n.startsWith('55'), id: `${n}@test` }));
      await new Promise((r) => setTimeout(r, 50));
      expect(await backend.queries.checkNumber(connection, '5511999990000')).to.deep.equal({ exists: true, id: '5511999990000@test' });
      expect(await backend.queries.checkNumber({ id: 43 } as Connection, '5511999990000').catch((e) => e.code)).to.equal('ERR_SESSION_NOT_CONNECTED');
      detach();
      await new Promise((r) => setTimeout(r, 50));
      expect(await backend.queries.checkNumber(connection, '5511999990000').catch((e) => e.code)).to.equal('ERR_SESSION_NOT_CONNECTED');
    } finally {
      await backend.close();
      await runtime.close();
    }
  });

  it("asks the runtime for the address book and a number's profile, and says when its connector has none", async () => {
    const prefix = `test.q.${Math.random().toString(36).slice(2, 8)}`;
    const backend = await NatsChannelQueries.connect(url!, prefix);
    const runtime = await NatsQueryResponder.connect(url!, prefix);
    try {
      const connection = { id: 42 } as Connection;
      expect(await backend.queries.contacts(connection).catch((e) => e.code)).to.equal('ERR_SESSION_NOT_CONNECTED');
      const detach = runtime.responder.attach(42, async () => ({ exists: true, id: null }), {
        contacts: async () => [{ number: '5511987650001', name: 'Ana' }],
        profile: async (n) => ({ name: `P ${n}`, profilePicUrl: `https://pic.test/${n}.png` }),
      });
      const bare = runtime.responder.attach(43, async () => ({ exists: false, id: null }));
      await new Promise((r) => setTimeout(r, 50));
      expect(await backend.queries.contacts(connection)).to.deep.equal([{ number: '5511987650001', name: 'Ana' }]);
      expect(await backend.queries.profile(connection, '5511')).to.deep.equal({ name: 'P 5511', profilePicUrl: 'https://pic.test/5511.png' });
      expect(await backend.queries.contacts({ id: 43 } as Connection).catch((e) => e.code)).to.equal('ERR_CONTACTS_NOT_SUPPORTED');
      expect(await backend.queries.profile({ id: 43 } as Connection, '5511')).to.deep.equal({ name: null, profilePicUrl: null });
      detach();
      bare();
    } finally {
      await backend.close();
      await runtime.close();
    }
  });
});
