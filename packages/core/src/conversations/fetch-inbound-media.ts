import {
  inboundContentType,
  inboundFileName,
  inboundMediaKey,
  majorTypeOf,
  type InboundMedia,
  type InboundMediaFetcher,
} from '../connections/inbound-media.js';
import type { Connections } from '../connections/ports.js';
import { safeMediaType } from '../connections/connection-media.js';
import { exponentialBackoff, type JobDefinition } from '../jobs/job.js';
import type { Jobs } from '../jobs/jobs.js';
import type { Message, MessageMedia } from '../messages/message.js';
import type { Messages } from '../messages/ports.js';
import { isErrorCode, type ErrorCode } from '../shared/error-codes.js';
import { DomainError, PayloadTooLargeError, ServiceUnavailableError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, Clock, IdGenerator } from '../shared/ports.js';
import type { MessageUpdates } from './message-updates.js';

/** The one-off job that brings a contact's file into blob storage, one per message. */
export const INBOUND_MEDIA_JOB = 'messages.fetch-inbound-media';

export interface InboundMediaSettings {
  /** A file over this many bytes is not kept (`ERR_MEDIA_TOO_LARGE`). */
  readonly maxBytes: number;
  /** Tries of a fetch that keeps meeting an unavailable provider before the file is marked failed. */
  readonly maxAttempts: number;
  /** The wait after the first failed try, doubling after each (at most five minutes). */
  readonly retryBaseMs: number;
}

export const DEFAULT_INBOUND_MEDIA_SETTINGS: InboundMediaSettings = { maxBytes: 64 * 1024 * 1024, maxAttempts: 5, retryBaseMs: 5_000 };

export interface InboundMediaJobPayload {
  readonly companyId: number;
  readonly messageId: string;
  readonly media: InboundMedia;
}

/** What a contact's message stores of its file at once: its name and type, pending until the job brings it. */
export function pendingMedia(media: InboundMedia, messageId: string): MessageMedia {
  return { key: '', url: '', contentType: inboundContentType(media), filename: inboundFileName(media, messageId), size: media.size ?? 0, status: 'pending' };
}

/**
 * How long after its message is stored a file's fetch is due: the message's `create` frame goes out
 * right after its commit, and a file fetched from a fast provider within that moment would send its
 * `update` first, which a client that does not have the message yet would drop.
 */
export const INBOUND_MEDIA_DELAY_MS = 1_000;

/** Enqueues the message's fetch, idempotent by message (called within the transaction that stores the message). */
export function enqueueInboundMedia(jobQueue: Jobs, message: Pick<Message, 'id' | 'companyId'>, media: InboundMedia, at: Date) {
  const payload: InboundMediaJobPayload = { companyId: message.companyId, messageId: message.id, media };
  return jobQueue.enqueue({ name: INBOUND_MEDIA_JOB, at: new Date(at.getTime() + INBOUND_MEDIA_DELAY_MS), payload, key: message.id });
}

/**
 * A contact's file, fetched after its message was stored and shown: the provider's fetcher brings
 * the bytes (capped, checked against the kind the message declared), they are stored whole under
 * the message's company, and only then does the message point to them (its `media` settled, an
 * `appMessage` `update` sent). What retrying cannot change fails the file at once; an unavailable
 * provider fails the run, retried with backoff, and the last try fails the file with its reason.
 * Nothing is half-written: a file stored for a message that no longer waits for it is removed.
 */
export class FetchInboundMedia {
  constructor(
    private readonly deps: {
      messages: Messages;
      connections: Connections;
      fetcher: InboundMediaFetcher;
      blobs: BlobStorage;
      ids: IdGenerator;
      clock: Clock;
      /** Tells the operators of the message's settled file. */
      updates: MessageUpdates;
      settings: InboundMediaSettings;
    },
  ) {}

  async execute(payload: InboundMediaJobPayload, attempt = 1): Promise<void> {
    const { messages, connections } = this.deps;
    const message = await messages.findById(payload.companyId, payload.messageId);
    if (message?.media?.status !== 'pending') return;
    const last = attempt >= this.deps.settings.maxAttempts;
    try {
      const connection = await connections.findById(message.companyId, message.connectionId);
      if (!connection) throw new ValidationError('ERR_MEDIA_NOT_SUPPORTED');
      await this.store(message, payload.media, connection);
    } catch (err) {
      const code = err instanceof DomainError && !(err instanceof ServiceUnavailableError) && isErrorCode(err.code) ? err.code : null;
      if (!code && !last) throw err;
      await this.fail(message, code ?? 'ERR_MEDIA_UNAVAILABLE');
    }
  }

  private async store(message: Message, media: InboundMedia, connection: NonNullable<Awaited<ReturnType<Connections['findById']>>>): Promise<void> {
    const { fetcher, blobs, ids, clock, settings } = this.deps;
    const pending = message.media!;
    // A size the provider declares over the cap spares the download.
    if (media.size !== undefined && media.size > settings.maxBytes) throw new PayloadTooLargeError('ERR_MEDIA_TOO_LARGE');
    const fetched = await fetcher.fetch({ media, connection, maxBytes: settings.maxBytes });
    if (fetched.data.length > settings.maxBytes) throw new PayloadTooLargeError('ERR_MEDIA_TOO_LARGE');
    if (fetched.data.length === 0) throw new ValidationError('ERR_MEDIA_EMPTY');
    const major = majorTypeOf(media.kind);
    const served = fetched.contentType?.split(';')[0]?.trim().toLowerCase();
    // The file must be what the message said it is: an image message's bytes served as a page are refused.
    const declared = pending.contentType.split('/')[0];
    if (major && (declared !== major || (served && served !== 'application/octet-stream' && !served.startsWith(`${major}/`)))) {
      throw new ValidationError('ERR_MEDIA_TYPE_NOT_ALLOWED');
    }
    // The type the server answered is more exact than a kind's default (a Messenger photo may be a PNG), once it matches the kind.
    const contentType = served && major && served.startsWith(`${major}/`) ? safeMediaType(served) : pending.contentType;
    const key = inboundMediaKey(message.companyId, ids.uuid(), pending.filename);
    await blobs.put(key, fetched.data, contentType);
    const stored: MessageMedia = { key, url: blobs.publicUrl(key), contentType, filename: pending.filename, size: fetched.data.length };
    let saved: Message | null;
    try {
      saved = await this.deps.messages.settleMedia(message.companyId, message.id, stored, clock.now());
    } catch (err) {
      await blobs.delete(key).catch(() => undefined);
      throw err;
    }
    if (!saved) {
      await blobs.delete(key).catch(() => undefined);
      return;
    }
    await this.deps.updates.updated(saved);
  }

  private async fail(message: Message, error: ErrorCode): Promise<void> {
    const media: MessageMedia = { ...message.media!, status: 'failed', error };
    const saved = await this.deps.messages.settleMedia(message.companyId, message.id, media, this.deps.clock.now());
    if (saved) await this.deps.updates.updated(saved);
  }
}

/**
 * The job that runs `FetchInboundMedia`: not atomic (the file goes to blob storage, outside the
 * database, and the message is settled by one statement of its own), its lease long enough for a
 * large file on a slow link.
 */
export function inboundMediaJobs(fetchInboundMedia: FetchInboundMedia, settings: InboundMediaSettings): JobDefinition<InboundMediaJobPayload>[] {
  return [
    {
      name: INBOUND_MEDIA_JOB,
      atomic: false,
      leaseMs: 10 * 60_000,
      maxAttempts: settings.maxAttempts,
      backoff: exponentialBackoff(settings.retryBaseMs, 5 * 60_000),
      run: async (ctx) => {
        await fetchInboundMedia.execute(ctx.payload, ctx.attempt);
      },
    },
  ];
}
