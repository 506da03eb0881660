import { expect } from 'chai';
import type { SessionControl } from '@servicedesk/core';
import { DEFAULT_SANDBOX_HISTORY_LIMIT, InMemorySandboxLedger, PermanentSendError, SandboxConnector, type ConnectorListener } from '../../src/index.js';

const command: SessionControl = { type: 'SessionControl', action: 'start', companyId: 1, chatappId: 7, provider: 'sandbox', secrets: {}, externalId: null };
const listener: ConnectorListener = { status: () => undefined, inbound: async () => undefined, delivery: () => undefined, presence: () => undefined };

async function sandboxSession(connector: SandboxConnector) {
  await connector.start(command, listener);
  const session = connector.session(7);
  session.behaviour = { acks: false };
  return session;
}

describe('SandboxConnector history', () => {
  it('keeps the latest historyLimit sends, edits and revocations of a session', async () => {
    const session = await sandboxSession(new SandboxConnector(new InMemorySandboxLedger(), { historyLimit: 3 }));
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await session.send('5511999990000', { body: `m${i}` }, { idempotencyKey: `k${i}` })).providerMessageId);
    expect(session.sent.map((s) => s.content.body)).to.deep.equal(['m7', 'm8', 'm9']);
    for (let i = 0; i < 5; i++) await session.edit('5511999990000', ids[9]!, `edit ${i}`);
    expect(session.edited.map((e) => e.body)).to.deep.equal(['edit 2', 'edit 3', 'edit 4']);
    for (const id of ids.slice(7)) await session.revoke('5511999990000', id);
    await session.revoke('5511999990000', ids[9]!);
    expect(session.revoked.map((r) => r.providerMessageId)).to.deep.equal([ids[8], ids[9], ids[9]]);
  });

  it('refuses, as unknown, to change a send it no longer keeps', async () => {
    const session = await sandboxSession(new SandboxConnector(new InMemorySandboxLedger(), { historyLimit: 2 }));
    const first = await session.send('5511999990000', { body: 'old' });
    await session.send('5511999990000', { body: 'b' });
    await session.send('5511999990000', { body: 'c' });
    const refused = await session.edit('5511999990000', first.providerMessageId, 'x').then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).to.be.instanceOf(PermanentSendError);
    expect((refused as PermanentSendError).reason).to.equal('ERR_UNKNOWN_MESSAGE');
  });

  it(`keeps ${DEFAULT_SANDBOX_HISTORY_LIMIT} sends by default`, async () => {
    const session = await sandboxSession(new SandboxConnector());
    for (let i = 0; i < DEFAULT_SANDBOX_HISTORY_LIMIT + 25; i++) await session.send('5511999990000', { body: `m${i}` });
    expect(session.sent).to.have.length(DEFAULT_SANDBOX_HISTORY_LIMIT);
    expect(session.sent[0]!.content.body).to.equal('m25');
    expect(session.sent.at(-1)!.content.body).to.equal(`m${DEFAULT_SANDBOX_HISTORY_LIMIT + 24}`);
  });
});

describe('InMemorySandboxLedger', () => {
  const delivery = (key: string) => ({ chatappId: 7, key, to: '5511999990000', body: key });

  it('answers the first provider id for a repeated key, and forgets the oldest keys beyond maxKeys', async () => {
    const ledger = new InMemorySandboxLedger({ maxKeys: 2 });
    expect(await ledger.deliverOnce(delivery('a'), 'p-a')).to.deep.equal({ providerMessageId: 'p-a', first: true });
    expect(await ledger.deliverOnce(delivery('a'), 'p-a2')).to.deep.equal({ providerMessageId: 'p-a', first: false });
    await ledger.deliverOnce(delivery('b'), 'p-b');
    await ledger.deliverOnce(delivery('c'), 'p-c');
    expect(await ledger.deliverOnce(delivery('c'), 'p-c2')).to.deep.equal({ providerMessageId: 'p-c', first: false });
    expect(await ledger.deliverOnce(delivery('a'), 'p-a3'), 'the oldest key is forgotten').to.deep.equal({ providerMessageId: 'p-a3', first: true });
  });
});
