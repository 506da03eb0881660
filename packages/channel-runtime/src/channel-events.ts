import { inboundShard, SUBJECTS, type ChannelEvent, type SessionControl } from '@servicedesk/core';
import type { ConnectorListener } from './ports.js';
import type { ChannelRuntimeOptions } from './runtime-options.js';

type SessionStatus = Parameters<ConnectorListener['status']>[0];

/**
 * What the runtime publishes: session status, inbound messages, presence, delivery reports, and
 * whatever else its parts hand it. Every event id is derived from what it reports, so a
 * redelivered command never produces a second distinct event.
 */
export class ChannelEvents {
  private eventCounter = 0;
  /** Our message ids of recent sends by provider id, so that delivery events name the message. */
  private readonly sentIds = new Map<string, string>();

  constructor(private readonly o: Pick<ChannelRuntimeOptions, 'broker' | 'recordInbound' | 'logger' | 'now'>) {}

  now(): Date {
    return (this.o.now ?? (() => new Date()))();
  }

  publish(id: string, subject: string, event: ChannelEvent) {
    return this.o.broker.publish({ id, subject, payload: event });
  }

  /** Asks the backend for the sessions to hold: the first instance to start finds none recorded. */
  online(runtimeId: string) {
    const at = this.now().toISOString();
    return this.publish(`runtime-online:${runtimeId}`, SUBJECTS.runtimeOnline, { type: 'RuntimeOnline', runtimeId, at });
  }

  status(cmd: { chatappId: number; companyId: number }, status: SessionStatus, qrcode: string | null, pairingCode: string | null = null) {
    return this.publish(`session:${cmd.chatappId}:${Date.now()}:${++this.eventCounter}`, SUBJECTS.sessionStatus, {
      type: 'SessionStatusChanged',
      companyId: cmd.companyId,
      chatappId: cmd.chatappId,
      status,
      qrcode,
      ...(pairingCode ? { pairingCode } : {}),
      at: this.now().toISOString(),
    });
  }

  /** Remembers which of our messages a provider id stands for, for the delivery reports to come. */
  rememberSent(chatappId: number, providerMessageId: string, messageId: string) {
    this.sentIds.set(`${chatappId}:${providerMessageId}`, messageId);
    if (this.sentIds.size > 10_000) this.sentIds.delete(this.sentIds.keys().next().value!);
  }

  /** What a connector session reports, turned into events of its connection. */
  listenerFor(cmd: SessionControl): ConnectorListener {
    const { companyId, chatappId } = cmd;
    const report = (p: Promise<void>) => p.catch((err) => this.o.logger.error({ err, chatappId }, 'could not publish a channel event'));
    return {
      status: (status, qrcode, pairingCode) => {
        void report(this.status(cmd, status, qrcode, pairingCode ?? null));
      },
      inbound: (m) => {
        const envelope = {
          id: `inbound:${chatappId}:${m.providerMessageId}`,
          subject: SUBJECTS.inbound(inboundShard(chatappId, m.from)),
          payload: {
            type: 'InboundMessage',
            companyId,
            chatappId,
            providerMessageId: m.providerMessageId,
            from: m.from,
            senderName: m.senderName,
            body: m.body,
            isGroup: m.isGroup,
            at: m.at.toISOString(),
            ...(m.location ? { location: m.location } : {}),
            ...(m.contacts ? { contacts: m.contacts } : {}),
            ...(m.media ? { media: m.media } : {}),
          } satisfies ChannelEvent,
        };
        const taken = this.o.recordInbound ? this.o.recordInbound([envelope]) : this.o.broker.publish(envelope);
        // Logged here; the connector that awaits `taken` also sees the failure, one that does not has nothing to handle.
        void report(taken);
        return taken;
      },
      presence: (from, state) => {
        // Straight to the broker, never through `recordInbound` (the outbox): nothing to keep.
        void report(
          this.publish(`presence:${chatappId}:${from}:${Date.now()}:${++this.eventCounter}`, SUBJECTS.contactPresence, {
            type: 'ContactPresence',
            companyId,
            chatappId,
            from,
            state,
            at: this.now().toISOString(),
          }),
        );
      },
      delivery: (providerMessageId, status) => {
        const messageId = this.sentIds.get(`${chatappId}:${providerMessageId}`);
        void report(
          this.publish(`status:${chatappId}:${providerMessageId}:${status}`, SUBJECTS.messageStatus, {
            type: 'MessageStatusChanged',
            companyId,
            chatappId,
            providerMessageId,
            status,
            at: this.now().toISOString(),
            ...(messageId ? { messageId } : {}),
          }),
        );
      },
    };
  }
}
