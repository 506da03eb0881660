import { expect } from 'chai';
import { InProcessBroker, SUBJECTS, type Connection, type SessionControl } from '@servicedesk/core';
import { ChannelRuntime, RuntimeChannelQueries, SandboxConnector, type ConnectorSession } from '../src/index.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('Questions to the sessions of an embedded runtime', () => {
  it("reads the sandbox's address book and profiles, hands the same answers to a remote responder, and says when no session can answer", async () => {
    const broker = new InProcessBroker();
    const sandbox = new SandboxConnector();
    const attached: Array<{ chatappId: number; more: Pick<ConnectorSession, 'contacts' | 'profile'> }> = [];
    const queries = {
      attach: (chatappId: number, _check: unknown, more: Pick<ConnectorSession, 'contacts' | 'profile'> = {}) => {
        attached.push({ chatappId, more });
        return () => undefined;
      },
    };
    const runtime = new ChannelRuntime({ broker, connectors: [sandbox], logger: silent, queries });
    await runtime.start();
    const control: SessionControl = { type: 'SessionControl', action: 'start', companyId: 1, chatappId: 7, provider: 'sandbox', secrets: {}, externalId: null };
    await broker.publish({ id: 'c1', subject: SUBJECTS.sessionControl(7), payload: control });
    for (let i = 0; i < 5; i++) {
      await broker.idle();
      await new Promise((r) => setTimeout(r, 10));
    }
    const ask = new RuntimeChannelQueries(runtime);
    const connection = { id: 7 } as Connection;
    const book = await ask.contacts(connection);
    expect(book.map((c) => c.number)).to.deep.equal(['5511987650001', '5511987650002', '551187650003', '5521987650004']);
    expect(await ask.profile(connection, '+55 11 98765-0001')).to.deep.equal({
      name: 'Ana Sandbox',
      profilePicUrl: 'https://sandbox.invalid/avatars/5511987650001.png',
    });
    expect(await ask.profile(connection, '12')).to.deep.equal({ name: null, profilePicUrl: null });
    sandbox.session(7).addressBook = [{ number: '5511900000001', name: 'Só um' }];
    expect(await attached[0]!.more.contacts!()).to.deep.equal([{ number: '5511900000001', name: 'Só um' }]);
    expect(attached[0]!.chatappId).to.equal(7);
    expect(await ask.contacts({ id: 8 } as Connection).catch((e) => e.code)).to.equal('ERR_SESSION_NOT_CONNECTED');
    await runtime.stop();
  });
});
