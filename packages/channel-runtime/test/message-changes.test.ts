import { expect } from 'chai';
import { InProcessBroker, SUBJECTS, type SessionControl, type SessionEditMessage, type SessionRevokeMessage, type SessionSendMessage } from '@servicedesk/core';
import { ChannelRuntime, SandboxConnector } from '../src/index.js';

describe('Channel runtime: edit and revoke commands (sandbox)', () => {
  async function setup() {
    const broker = new InProcessBroker();
    const sandbox = new SandboxConnector();
    const warnings: Array<{ reason?: string }> = [];
    const logger = {
      info: () => undefined,
      warn: (o: object) => {
        warnings.push(o as { reason?: string });
      },
      error: () => undefined,
    };
    const runtime = new ChannelRuntime({ broker, connectors: [sandbox], logger, retryDelayMs: 5, maxSendAttempts: 3 });
    await runtime.start();
    const settle = async () => {
      for (let i = 0; i < 5; i++) {
        await broker.idle();
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    const start: SessionControl = { type: 'SessionControl', action: 'start', companyId: 1, chatappId: 7, provider: 'sandbox', secrets: {}, externalId: null };
    await broker.publish({ id: 'c1', subject: SUBJECTS.sessionControl(7), payload: start });
    await settle();
    const send: SessionSendMessage = {
      type: 'SessionSendMessage',
      messageId: 'm1',
      companyId: 1,
      chatappId: 7,
      ticketId: 3,
      to: '5511999990000',
      content: { body: 'hi' },
    };
    await broker.publish({ id: 'm1', subject: SUBJECTS.sessionSend(7), payload: send });
    await settle();
    const providerMessageId = sandbox.session(7).sent[0]!.providerMessageId;
    const base = { messageId: 'm1', companyId: 1, chatappId: 7, ticketId: 3, to: '5511999990000', providerMessageId };
    return { broker, sandbox, runtime, settle, warnings, base };
  }

  it('edits and then revokes a sent message through the session', async () => {
    const s = await setup();
    const edit: SessionEditMessage = { type: 'SessionEditMessage', ...s.base, body: 'hello' };
    const revoke: SessionRevokeMessage = { type: 'SessionRevokeMessage', ...s.base };
    await s.broker.publish({ id: 'e1', subject: SUBJECTS.sessionEdit(7), payload: edit });
    await s.broker.publish({ id: 'r1', subject: SUBJECTS.sessionRevoke(7), payload: revoke });
    await s.settle();
    expect(s.sandbox.session(7).edited).to.deep.equal([{ to: '5511999990000', providerMessageId: s.base.providerMessageId, body: 'hello' }]);
    expect(s.sandbox.session(7).revoked).to.deep.equal([{ to: '5511999990000', providerMessageId: s.base.providerMessageId }]);
    expect(s.warnings).to.deep.equal([]);
    await s.runtime.stop();
  });

  it('drops, with a warning, a change the provider refuses or one for another company; one for a session nobody holds waits', async () => {
    const s = await setup();
    await s.broker.publish({
      id: 'e1',
      subject: SUBJECTS.sessionEdit(7),
      payload: { type: 'SessionEditMessage', ...s.base, providerMessageId: 'nope', body: 'x' },
    });
    await s.broker.publish({ id: 'r1', subject: SUBJECTS.sessionRevoke(8), payload: { type: 'SessionRevokeMessage', ...s.base, chatappId: 8 } });
    await s.broker.publish({ id: 'r2', subject: SUBJECTS.sessionRevoke(7), payload: { type: 'SessionRevokeMessage', ...s.base, companyId: 2 } });
    await s.settle();
    // Connection 8 has no session anywhere: its revoke stays in the broker for a future owner.
    expect(s.warnings.map((w) => w.reason).sort()).to.deep.equal(['ERR_SESSION_NOT_FOUND', 'ERR_UNKNOWN_MESSAGE']);
    expect(s.sandbox.session(7).edited).to.deep.equal([]);
    expect(s.sandbox.session(7).revoked).to.deep.equal([]);
    await s.runtime.stop();
  });
});
