import { SUBJECTS, type Application, type Broker, type ChannelCommand, type ChannelEvent, type Clock, type SessionSendMessage } from '@servicedesk/core';

/** What the stand-in channel did, for the demo's report. */
export interface SandboxChannel {
  /** The send commands it carried out, in order. */
  readonly sent: readonly SessionSendMessage[];
  stop(): Promise<void>;
}

/**
 * A few lines standing in for the channel runtime with its sandbox connector, so the demo
 * closes the loop without a provider or a second process. Both halves talk only through the
 * broker, as the real components do: the "runtime" consumes commands (`cmd.>`) and answers with
 * events (`evt.>`); the "backend" consumer applies those events through the core's use case.
 */
export async function attachSandboxChannel(deps: { app: Application; broker: Broker; clock: Clock }): Promise<SandboxChannel> {
  const { app, broker, clock } = deps;
  const sent: SessionSendMessage[] = [];
  let n = 0;
  const emit = (subject: string, event: ChannelEvent) => broker.publish({ id: `sandbox-evt-${++n}`, subject, payload: event });
  const at = () => clock.now().toISOString();

  const runtime = await broker.subscribe('sandbox-runtime', 'cmd.>', async ({ payload }) => {
    const command = payload as ChannelCommand;
    const base = { companyId: command.companyId, chatappId: command.chatappId, at: at() };
    if (command.type === 'SessionControl' && command.action !== 'logout') {
      // A sandbox session needs no QR code: it is connected as soon as it starts.
      await emit(SUBJECTS.sessionStatus, { type: 'SessionStatusChanged', status: 'CONNECTED', qrcode: null, ...base });
    } else if (command.type === 'SessionSendMessage') {
      sent.push(command);
      const providerMessageId = `sandbox-${command.messageId}`;
      await emit(SUBJECTS.messageSent, { type: 'SessionMessageSent', messageId: command.messageId, providerMessageId, ...base });
      await emit(SUBJECTS.messageStatus, { type: 'MessageStatusChanged', messageId: command.messageId, providerMessageId, status: 'delivered', ...base });
    }
  });
  const backend = await broker.subscribe('backend-events', 'evt.>', async ({ payload }) => {
    await app.conversations.applyChannelEvent.execute(payload as ChannelEvent);
  });

  return {
    sent,
    async stop() {
      await runtime.stop();
      await backend.stop();
    },
  };
}
