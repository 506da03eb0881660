import type { ConnectionProvider, ConnectionStatus } from './connection.js';
import type { DeliveryStatus } from './delivery-status.js';
import type { SharedContact, SharedLocation } from './shared-content.js';
import type { InboundMedia } from './inbound-media.js';

/** A provider template to send (bizchat): its name and language, and the values of its components in the provider's shape. */
export interface TemplateSend {
  readonly name: string;
  readonly language: string;
  readonly components: ReadonlyArray<{
    readonly type: 'header' | 'body' | 'button';
    readonly sub_type?: string;
    readonly index?: string;
    readonly parameters: ReadonlyArray<Record<string, unknown>>;
  }>;
}

/** What a connector needs to send one message. */
export interface OutboundContent {
  readonly body: string;
  readonly media?: { readonly url: string; readonly key: string; readonly contentType: string; readonly filename: string };
  readonly buttons?: ReadonlyArray<{ readonly id: string; readonly text: string }>;
  readonly list?: {
    readonly title: string;
    readonly buttonText: string;
    readonly sections: ReadonlyArray<{
      readonly title: string;
      readonly rows: ReadonlyArray<{ readonly id: string; readonly title: string; readonly description?: string }>;
    }>;
  };
  /** The provider's id of the message this one replies to (quoted reply). */
  readonly quotedProviderMessageId?: string;
  /** A bizchat template to send instead of free text (`body` is its rendered text, kept in the conversation). */
  readonly template?: TemplateSend;
}

/** Command: send on a session connection (the "send command for the session connector"). */
export interface SessionSendMessage {
  readonly type: 'SessionSendMessage';
  readonly messageId: string;
  /** When the send was accepted: the runtime retries it until its deadline counted from here. */
  readonly issuedAt?: string;
  readonly companyId: number;
  readonly chatappId: number;
  readonly ticketId: number;
  readonly to: string;
  readonly content: OutboundContent;
}

/** Command: send on a social-network connection. */
export interface SocialSendMessage {
  readonly type: 'SocialSendMessage';
  readonly messageId: string;
  readonly issuedAt?: string;
  readonly companyId: number;
  readonly chatappId: number;
  readonly ticketId: number;
  /** The contact's id at the provider (page-scoped id). */
  readonly to: string;
  readonly content: OutboundContent;
}

/** The proxy a session opens its socket through (the password in clear, as the connection's `secrets`). */
export interface SessionProxy {
  readonly protocol: 'http' | 'https' | 'socks4' | 'socks5';
  readonly host: string;
  readonly port: number;
  readonly username: string | null;
  readonly password: string | null;
}

/** Command: start, restart or log out of a session. */
export interface SessionControl {
  readonly type: 'SessionControl';
  readonly action: 'start' | 'restart' | 'logout';
  readonly companyId: number;
  readonly chatappId: number;
  readonly provider: ConnectionProvider;
  readonly secrets: Record<string, string>;
  readonly externalId: string | null;
  /**
   * A `start` sent to bring sessions back after a restart: a runtime already running the session
   * as described keeps it (an operator's start replaces it).
   */
  readonly resume?: boolean;
  /** The proxy assigned to the connection (`start` and `restart`); absent: the session connects directly. */
  readonly proxy?: SessionProxy;
  /**
   * The account's phone number (digits, with the country code) when the operator pairs by code
   * instead of QR code (`start` and `restart`): a session not yet paired asks its provider for a
   * pairing code for this number and reports it as `pairingCode`. Absent: QR code.
   */
  readonly pairingPhoneNumber?: string;
}

/** Command: change the text of a message the session sent (`cmd.session.edit.<chatappId>`). */
export interface SessionEditMessage {
  readonly type: 'SessionEditMessage';
  readonly messageId: string;
  readonly companyId: number;
  readonly chatappId: number;
  readonly ticketId: number;
  readonly to: string;
  readonly providerMessageId: string;
  readonly body: string;
}

/** Command: delete a message the session sent, for everyone (`cmd.session.revoke.<chatappId>`). */
export interface SessionRevokeMessage {
  readonly type: 'SessionRevokeMessage';
  readonly messageId: string;
  readonly companyId: number;
  readonly chatappId: number;
  readonly ticketId: number;
  readonly to: string;
  readonly providerMessageId: string;
}

export type ChannelCommand = SessionSendMessage | SocialSendMessage | SessionControl | SessionEditMessage | SessionRevokeMessage;

/** Event: the message left through the connector (`SessionMessageSent` / `SocialMessageSent`). */
export interface MessageSentEvent {
  readonly type: 'SessionMessageSent' | 'SocialMessageSent';
  readonly messageId: string;
  readonly companyId: number;
  readonly chatappId: number;
  readonly providerMessageId: string;
  readonly at: string;
}

/** Event: the send failed for good; the message ends `failed` with this reason. */
export interface MessageFailedEvent {
  readonly type: 'SessionMessageFailed' | 'SocialMessageFailed';
  readonly messageId: string;
  readonly companyId: number;
  readonly chatappId: number;
  readonly reason: string;
  readonly at: string;
}

export interface MessageStatusEvent {
  readonly type: 'MessageStatusChanged';
  /** Our id, when the runtime knows it (messages it sent); else matched by the provider id. */
  readonly messageId?: string;
  readonly companyId: number;
  readonly chatappId: number;
  readonly providerMessageId: string;
  readonly status: DeliveryStatus;
  /** Why the provider reports `failed` (an `ERR_` code), when it says. */
  readonly reason?: string;
  readonly at: string;
}

export interface InboundMessageEvent {
  readonly type: 'InboundMessage';
  readonly companyId: number;
  readonly chatappId: number;
  readonly providerMessageId: string;
  /** Digits of the sender's number, or the provider's user id for social networks. */
  readonly from: string;
  readonly senderName: string;
  readonly body: string;
  readonly isGroup: boolean;
  readonly at: string;
  /**
   * The file the contact sent (the caption, if any, is `body`): what it is and where the backend
   * fetches it from, never its bytes. Absent for a text.
   */
  readonly media?: InboundMedia;
  /**
   * A place the contact shared (`body` then says so in words). Checked where events are accepted:
   * finite coordinates in range, texts cut (`cleanLocation`); one that fails is dropped.
   */
  readonly location?: SharedLocation;
  /** Contact cards the contact shared (`body` then names them), checked as `location` (`cleanContacts`). */
  readonly contacts?: readonly SharedContact[];
}

export interface SessionStatusEvent {
  readonly type: 'SessionStatusChanged';
  readonly companyId: number;
  readonly chatappId: number;
  readonly status: ConnectionStatus;
  readonly qrcode: string | null;
  /** With `status: 'qrcode'` when pairing by phone number: the code to type on the phone (the QR code is then null). */
  readonly pairingCode?: string | null;
  readonly at: string;
}

/** What a contact is doing in the conversation, as the channel reports it: typing, recording audio, or stopped. */
export type ContactPresenceState = 'composing' | 'recording' | 'paused';

/**
 * Event: a contact is typing or recording, or stopped (`evt.presence.contact`). Ephemeral: the
 * runtime publishes it straight to the broker (never through the outbox), the backend stores
 * nothing of it, and one lost or handled late is harmless.
 */
export interface ContactPresenceEvent {
  readonly type: 'ContactPresence';
  readonly companyId: number;
  readonly chatappId: number;
  /** Digits of the contact's number (as `InboundMessageEvent.from`). */
  readonly from: string;
  readonly state: ContactPresenceState;
  readonly at: string;
}

/** Event: a channel runtime came online (it holds no sessions yet and asks for them). */
export interface RuntimeOnlineEvent {
  readonly type: 'RuntimeOnline';
  readonly runtimeId: string;
  readonly at: string;
}

export type ChannelEvent =
  | RuntimeOnlineEvent
  | MessageSentEvent
  | MessageFailedEvent
  | MessageStatusEvent
  | InboundMessageEvent
  | SessionStatusEvent
  | ContactPresenceEvent;
