import type { DeliveryStatus } from '../connections/delivery-status.js';
import type { SharedKind } from '../connections/shared-content.js';

export interface MessageMedia {
  readonly key: string;
  readonly url: string;
  readonly contentType: string;
  readonly filename: string;
  readonly size: number;
  /**
   * A contact's file on its way: `pending` while a background job fetches it from the provider
   * (`key` and `url` are then empty), `failed` once it gave up (`error` says why). Absent once stored.
   */
  readonly status?: 'pending' | 'failed';
  readonly error?: string;
}

/** Whether the message's file is stored and can be read (not a contact's file still pending or failed). */
export function hasStoredMedia(m: Pick<Message, 'media'>): m is { media: MessageMedia } {
  return m.media !== null && m.media.status === undefined && m.media.key !== '';
}

export interface Message {
  /** Our id (uuid): the idempotency key of the send and of every broker message about it. */
  id: string;
  companyId: number;
  ticketId: number;
  contactId: number;
  connectionId: number;
  /** The provider's id, unique per connection: inbound duplicates collide on it. */
  providerMessageId: string | null;
  fromMe: boolean;
  body: string;
  media: MessageMedia | null;
  status: DeliveryStatus;
  failureReason: string | null;
  quotedMessageId: string | null;
  isPrivate: boolean;
  userId: number | null;
  createdAt: Date;
  updatedAt: Date;
  /** Revoked by an operator: kept (operators still see it) but gone for the contact. */
  isDeleted: boolean;
  /** The body was changed after sending; `editedAt` says when. */
  isEdited: boolean;
  editedAt: Date | null;
  /** What a speech-to-text service heard in its audio (`POST /transcription/:ticketId`); null until transcribed. The body is never replaced. */
  transcription: string | null;
  /**
   * A location or contact cards the contact shared (the body holds them in the lineage's shape:
   * `shared-content.ts`); absent or null: a text or a file.
   */
  kind?: SharedKind | null;
}

/** Digits only, 8 to 15 of them (E.164 without the plus). */
export function isValidNumber(number: string): boolean {
  return /^\d{8,15}$/.test(number);
}
