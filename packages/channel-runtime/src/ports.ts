import type {
  ConnectionProvider,
  ConnectionStatus,
  ContactPresenceState,
  DeliveryStatus,
  InboundMedia,
  OutboundContent,
  SessionControl,
} from '@servicedesk/core';
import type { SharedContact, SharedLocation } from '@servicedesk/core/connections/shared-content';

export interface InboundFromProvider {
  readonly providerMessageId: string;
  readonly from: string;
  readonly senderName: string;
  readonly body: string;
  readonly isGroup: boolean;
  readonly at: Date;
  /** A place the contact shared (`body` says so in words). */
  readonly location?: SharedLocation;
  /** Contact cards the contact shared (`body` names them). */
  readonly contacts?: readonly SharedContact[];
  /** The file the contact sent, and where to fetch it (the caption, if any, is `body`). */
  readonly media?: InboundMedia;
}

/** What a connector reports back about its session; the runtime turns each into a broker event. */
export interface ConnectorListener {
  /** `pairingCode`: with `qrcode` status, the code to type on the phone when the session pairs by phone number. */
  status(status: ConnectionStatus, qrcode: string | null, pairingCode?: string | null): void;
  /**
   * A message the provider delivered. Settles once it is taken: durable, so that a crash afterwards
   * cannot lose it (a connector whose provider waits for an acknowledgement gives it then); rejects
   * when it could not be taken (already logged: a connector may ignore the promise).
   */
  inbound(message: InboundFromProvider): Promise<void>;
  delivery(providerMessageId: string, status: DeliveryStatus): void;
  /**
   * A contact (digits of the number, as `InboundFromProvider.from`) typing, recording audio or
   * stopped. Ephemeral: published as is, never recorded; one that cannot be published is dropped.
   */
  presence(from: string, state: ContactPresenceState): void;
}

/** One live session of a connection at its provider. */
export interface ConnectorSession {
  readonly chatappId: number;
  status(): ConnectionStatus;
  /**
   * Sends and answers the provider's message id; throws when the provider refused. A connector
   * whose provider deduplicates by a key uses `idempotencyKey` (our message id), so a send
   * repeated after a crash is not delivered twice.
   *
   * `reports`, when given, tells what the provider answers about this send at once (receipts, a
   * reply): the runtime calls it after it has recorded the send and started reporting it, and
   * before it acknowledges the command, so that a crash in between cannot lose those reports (the
   * command is then redelivered, and the send repeated under its key reports them again). It
   * answers a promise when what it reports is taken later (an inbound reply): the acknowledgement waits for it.
   */
  send(
    to: string,
    content: OutboundContent,
    options?: { idempotencyKey?: string },
  ): Promise<{ providerMessageId: string; reports?: () => void | Promise<void> }>;
  /** Whether a number has an account at the provider, and the provider's normalized id for it. */
  checkNumber(number: string): Promise<{ exists: boolean; id: string | null }>;
  /** Changes the text of a message this session sent (optional: not every provider can). */
  edit?(to: string, providerMessageId: string, body: string): Promise<void>;
  /** Deletes a message this session sent, for everyone (optional: not every provider can). */
  revoke?(to: string, providerMessageId: string): Promise<void>;
  /** The account's address book: people (no groups), numbers digits only (optional: not every provider has one). */
  contacts?(): Promise<Array<{ number: string; name: string }>>;
  /** A number's public name and picture at the provider, nulls when it shows none (optional). */
  profile?(number: string): Promise<{ name: string | null; profilePicUrl: string | null }>;
  stop(options: { logout: boolean }): Promise<void>;
}

/** A provider's connector (sandbox, Baileys, Messenger/Instagram). */
export interface Connector {
  readonly providers: readonly ConnectionProvider[];
  start(command: SessionControl, listener: ConnectorListener): Promise<ConnectorSession>;
}

/** A send the connector refused for good (no point retrying): the message ends failed. */
export class PermanentSendError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
