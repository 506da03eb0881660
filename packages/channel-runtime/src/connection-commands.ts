import { SUBJECTS, type DeliveryInfo, type SessionControl, type SessionSendMessage, type SocialSendMessage } from '@servicedesk/core';
import type { SessionEditMessage, SessionRevokeMessage } from '@servicedesk/core';
import { PermanentSendError, type ConnectorSession } from './ports.js';
import type { ChannelEvents } from './channel-events.js';
import type { ChannelRuntimeOptions } from './runtime-options.js';
import type { HeldSession } from './session-lifecycle.js';

/** What arrives on a connection's own command subject (`cmd.<kind>.<verb>.<chatappId>`). */
export type ConnectionCommand = SessionSendMessage | SocialSendMessage | SessionEditMessage | SessionRevokeMessage | SessionControl;

/**
 * A connection's own commands, on the session this instance holds for it: sends (reported as sent
 * or failed; retried through the broker until their deadline) and edits or revokes of sent messages.
 */
export class ConnectionCommands {
  private readonly seenAt = new Map<string, number>();

  constructor(
    private readonly o: Pick<ChannelRuntimeOptions, 'logger' | 'maxSendAttempts' | 'sendDeadlineMs'>,
    private readonly held: (chatappId: number) => HeldSession | undefined,
    private readonly events: ChannelEvents,
  ) {}

  /** A command read from the connection's own consumer. Control commands there are the control consumer's. */
  async command(cmd: ConnectionCommand, info: DeliveryInfo): Promise<void> {
    switch (cmd.type) {
      case 'SessionSendMessage':
      case 'SocialSendMessage':
        return this.send(cmd);
      case 'SessionEditMessage':
      case 'SessionRevokeMessage':
        return this.change(cmd, info);
      default:
        return;
    }
  }

  /**
   * SessionSendMessage / SocialSendMessage: validate the connection and its session, send, and
   * report `…MessageSent`; a refusal or the last failed attempt reports `…MessageFailed`.
   */
  private async send(cmd: SessionSendMessage | SocialSendMessage): Promise<void> {
    const social = cmd.type === 'SocialSendMessage';
    const fail = (reason: string) =>
      this.events.publish(`failed:${cmd.messageId}`, SUBJECTS.messageFailed, {
        type: social ? 'SocialMessageFailed' : 'SessionMessageFailed',
        messageId: cmd.messageId,
        companyId: cmd.companyId,
        chatappId: cmd.chatappId,
        reason,
        at: this.events.now().toISOString(),
      });
    if (!Number.isInteger(cmd.chatappId) || cmd.chatappId <= 0) return fail('ERR_INVALID_CHATAPP_ID');
    if (!cmd.to || !Number.isInteger(cmd.ticketId)) return fail('ERR_INVALID_TICKET_DATA');
    // Until the deadline, a missing session or a transient error means "later": the broker redelivers.
    const issuedAt = Date.parse(cmd.issuedAt ?? '') || this.firstSeen(cmd.messageId);
    const expired = this.events.now().getTime() - issuedAt >= (this.o.sendDeadlineMs ?? 60_000);
    const later = (reason: string) => (expired ? fail(reason) : Promise.reject(new Error(`retry later: ${reason}`)));
    const entry = this.held(cmd.chatappId);
    if (!entry || entry.companyId !== cmd.companyId) return later('ERR_SESSION_NOT_FOUND');
    if (entry.session.status() !== 'CONNECTED') return later('ERR_SESSION_NOT_CONNECTED');
    // Past the deadline the backend may already show the send as failed: never send it then.
    if (expired) return fail('ERR_SEND_DEADLINE_EXCEEDED');
    if (social !== ['messenger', 'instagram'].includes(entry.provider) && entry.provider !== 'sandbox') return fail('ERR_WRONG_CHANNEL');
    let result: Awaited<ReturnType<ConnectorSession['send']>>;
    try {
      result = await entry.session.send(cmd.to, cmd.content, { idempotencyKey: cmd.messageId });
    } catch (err) {
      if (err instanceof PermanentSendError) return fail(err.reason);
      return later(`ERR_SEND_FAILED: ${(err as Error).message}`);
    }
    const { providerMessageId } = result;
    this.events.rememberSent(cmd.chatappId, providerMessageId, cmd.messageId);
    const sent = this.events.publish(`sent:${cmd.messageId}`, SUBJECTS.messageSent, {
      type: social ? 'SocialMessageSent' : 'SessionMessageSent',
      messageId: cmd.messageId,
      companyId: cmd.companyId,
      chatappId: cmd.chatappId,
      providerMessageId,
      at: this.events.now().toISOString(),
    });
    // What the provider answered at once goes out behind `sent` and ahead of the command's
    // acknowledgement (one connection keeps that order), so no crash can leave it unreported; an
    // inbound reply among it is taken (recorded) before the acknowledgement too.
    await Promise.all([sent, result.reports?.()]);
  }

  /**
   * SessionEditMessage / SessionRevokeMessage: change or delete, at the provider, a message the
   * session sent. The backend already shows the change; one the provider cannot make (no session,
   * a connector without edit/revoke, a refusal, the last failed attempt) is logged and dropped.
   */
  private async change(cmd: SessionEditMessage | SessionRevokeMessage, info: DeliveryInfo): Promise<void> {
    const what = cmd.type === 'SessionEditMessage' ? 'edit' : 'revoke';
    const drop = (reason: string, err?: unknown) =>
      this.o.logger.warn({ err, chatappId: cmd.chatappId, messageId: cmd.messageId, reason }, `message ${what} dropped`);
    const entry = this.held(cmd.chatappId);
    if (!entry || entry.companyId !== cmd.companyId) return drop('ERR_SESSION_NOT_FOUND');
    if (entry.session.status() !== 'CONNECTED') return drop('ERR_SESSION_NOT_CONNECTED');
    const { session } = entry;
    try {
      if (cmd.type === 'SessionEditMessage') {
        if (!session.edit) return drop('ERR_EDIT_NOT_SUPPORTED');
        await session.edit(cmd.to, cmd.providerMessageId, cmd.body);
      } else {
        if (!session.revoke) return drop('ERR_REVOKE_NOT_SUPPORTED');
        await session.revoke(cmd.to, cmd.providerMessageId);
      }
    } catch (err) {
      if (err instanceof PermanentSendError) return drop(err.reason);
      if (info.deliveryCount >= (this.o.maxSendAttempts ?? 5)) return drop('ERR_GIVEN_UP', err);
      throw err;
    }
  }

  /** When this runtime first saw a command that carries no acceptance time. */
  private firstSeen(messageId: string): number {
    let at = this.seenAt.get(messageId);
    if (at === undefined) {
      at = this.events.now().getTime();
      this.seenAt.set(messageId, at);
      if (this.seenAt.size > 10_000) this.seenAt.delete(this.seenAt.keys().next().value!);
    }
    return at;
  }
}
