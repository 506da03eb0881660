import type { Users } from '../identity/ports.js';
import type { Jobs } from '../jobs/jobs.js';
import type { Message } from '../messages/message.js';
import type { Messages } from '../messages/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { Actor } from '../shared/actor.js';
import type { ErrorCode } from '../shared/error-codes.js';
import { DomainError, NotFoundError, PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import type { Clock, IdGenerator, SecretCipher, Transaction } from '../shared/ports.js';
import type { Tickets } from '../tickets/ports.js';
import { visibleTicket, visibleTicketByUuid } from '../tickets/ticket-access.js';
import { cleanLanguage, type TranscriptionCredential } from './credential.js';
import { endpointOf, findCredential, type TranscriptionPlan } from './manage-credentials.js';
import type { TranscriptionCredentials, TranscriptionJobs } from './ports.js';
import { TRANSCRIPTION_JOB, type TranscriptionJobPayload } from './run-transcription-job.js';
import { isAudio, MAX_AUDIO_BYTES, type MessageTranscriber } from './transcriber.js';
import type { TranscriptionEvent } from './transcription-events.js';
import { toJobView, type TranscriptionJob, type TranscriptionJobView } from './transcription-job.js';

/** Messages one request may name. */
export const MAX_NAMED_MESSAGES = 50;
/** Without names, the ticket's newest audio messages, up to this many. */
const MAX_TICKET_AUDIOS = 100;
/** Media messages looked through for them (pages of 100). */
const MAX_SCANNED_MEDIA = 1_000;
/** At most this many messages are transcribed while the request waits; more go to a job. */
const INLINE_MAX_MESSAGES = 3;

export interface TranscriptionSettings {
  /** Audio up to this many bytes in all is transcribed while the request waits; more runs as a background job. */
  readonly inlineMaxBytes: number;
  /** How long the speech-to-text adapter waits for one answer (it sizes the job's lease). */
  readonly timeoutMs: number;
}

export const DEFAULT_TRANSCRIPTION_SETTINGS: TranscriptionSettings = { inlineMaxBytes: 1024 * 1024, timeoutMs: 120_000 };

export interface TranscribeTicketInput {
  readonly actor: Actor;
  /** The ticket's id or uuid (as `GET /messages/:ticketId` takes it). */
  readonly ticketId: number | string;
  /** The audio messages to transcribe; absent: the ticket's (its newest 100 audio messages). */
  readonly messageIds?: readonly string[];
  /** ISO-639-1; absent: the credential's language, else detected. */
  readonly language?: string | null;
  /** A credential of the company; absent: its default. */
  readonly credentialId?: number;
  /** Transcribe again messages that already have a transcription. */
  readonly force?: boolean;
}

/** What became of one message. */
export interface MessageTranscription {
  readonly messageId: string;
  /** `done` (with `text`), `failed` (with `error`), or `queued`/`running` in the background job `jobId`. */
  readonly status: 'done' | 'failed' | 'queued' | 'running';
  readonly text: string | null;
  /** The message was already transcribed: its stored text, nothing asked of the service. */
  readonly cached: boolean;
  readonly error: ErrorCode | null;
  readonly jobId: string | null;
}

export interface TranscribeTicketResult {
  readonly ticketId: number;
  /** `done`: every outcome is in the answer; `queued`: some messages are transcribed by a background job (see `job`). */
  readonly status: 'done' | 'queued';
  /** The background job the request started, or the one already transcribing messages it named. */
  readonly job: TranscriptionJobView | null;
  /** One per message, oldest first. */
  readonly transcriptions: MessageTranscription[];
}

/**
 * `POST /transcription/:ticketId`: transcribes a ticket's audio messages (or those named) with the
 * company's credential. Short audio is transcribed while the request waits; longer audio (more
 * than `inlineMaxBytes` in all, or more than three messages) by a background job whose status the
 * answer and the `transcription` frames carry. Each transcript is stored on its message and sent as
 * an `appMessage` `update`. Anyone who may read the ticket may ask, as for `GET /messages/:ticketId`.
 * When nothing could be transcribed, the first failure is the answer (422, 413, 503…).
 */
export class TranscribeTicket {
  constructor(
    private readonly deps: {
      tickets: Tickets;
      users: Users;
      messages: Messages;
      credentials: TranscriptionCredentials;
      jobs: TranscriptionJobs;
      cipher: SecretCipher;
      transcriber: MessageTranscriber;
      plan: TranscriptionPlan;
      jobQueue: Jobs;
      realtime: RealtimeEvents<TranscriptionEvent>;
      tx: Transaction;
      clock: Clock;
      ids: IdGenerator;
      settings: TranscriptionSettings;
    },
  ) {}

  async execute(input: TranscribeTicketInput): Promise<TranscribeTicketResult> {
    const { actor } = input;
    await this.deps.plan.assertFeature(actor.companyId, 'ai');
    const ticket =
      typeof input.ticketId === 'number' ? await visibleTicket(this.deps, actor, input.ticketId) : await visibleTicketByUuid(this.deps, actor, input.ticketId);
    const credential = await this.credential(actor.companyId, input.credentialId);
    const endpoint = endpointOf(this.deps.cipher, credential);
    const language = input.language !== undefined && input.language !== null && input.language !== '' ? cleanLanguage(input.language) : credential.language;
    const candidates = input.messageIds ? await this.named(ticket.companyId, ticket.id, input.messageIds) : await this.audioOf(ticket.companyId, ticket.id);

    const outcomes = new Map<string, MessageTranscription>();
    const active = await this.deps.jobs.activeForTicket(ticket.companyId, ticket.id);
    const inJob = new Map(active.flatMap((job) => job.items.filter((i) => i.status === 'pending').map((i) => [i.messageId, job] as const)));
    const toDo: Message[] = [];
    let firstFailure: DomainError | null = null;
    for (const m of candidates) {
      const job = inJob.get(m.id);
      if (m.transcription !== null && !input.force) outcomes.set(m.id, outcome(m.id, 'done', { text: m.transcription, cached: true }));
      else if (job) outcomes.set(m.id, outcome(m.id, job.status === 'running' ? 'running' : 'queued', { jobId: job.id }));
      else if (m.media!.size > MAX_AUDIO_BYTES) {
        firstFailure ??= new PayloadTooLargeError('ERR_AUDIO_TOO_LARGE');
        outcomes.set(m.id, outcome(m.id, 'failed', { error: 'ERR_AUDIO_TOO_LARGE' }));
      } else toDo.push(m);
    }
    let started: TranscriptionJob | null = null;
    const bytes = toDo.reduce((sum, m) => sum + (m.media?.size ?? 0), 0);
    if (toDo.length > 0 && toDo.length <= INLINE_MAX_MESSAGES && bytes <= this.deps.settings.inlineMaxBytes) {
      for (const m of toDo) {
        try {
          const text = await this.deps.transcriber.transcribe(endpoint, m, language);
          outcomes.set(m.id, outcome(m.id, 'done', { text }));
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          firstFailure ??= err;
          outcomes.set(m.id, outcome(m.id, 'failed', { error: err.code }));
        }
      }
    } else if (toDo.length > 0) {
      started = await this.startJob(actor, ticket.id, credential, language, toDo);
      for (const m of toDo) outcomes.set(m.id, outcome(m.id, 'queued', { jobId: started.id }));
    }

    const transcriptions = candidates.map((m) => outcomes.get(m.id)!);
    if (firstFailure && transcriptions.every((t) => t.status === 'failed')) throw firstFailure;
    const pending = transcriptions.some((t) => t.status === 'queued' || t.status === 'running');
    const shown = started ?? active.find((job) => transcriptions.some((t) => t.jobId === job.id)) ?? null;
    return { ticketId: ticket.id, status: pending ? 'queued' : 'done', job: shown && toJobView(shown), transcriptions };
  }

  /** The credential named (404 when not the company's), else the company's default (422 when none). */
  private async credential(companyId: number, id: number | undefined): Promise<TranscriptionCredential> {
    if (id !== undefined) return findCredential(this.deps.credentials, companyId, id);
    const found = await this.deps.credentials.findDefault(companyId);
    if (!found) throw new ValidationError('ERR_TRANSCRIPTION_CREDENTIAL_REQUIRED');
    return found;
  }

  /** Each must be a message of this ticket (404 otherwise) carrying audio (422 otherwise); oldest first. */
  private async named(companyId: number, ticketId: number, ids: readonly string[]): Promise<Message[]> {
    const found: Message[] = [];
    for (const id of new Set(ids)) {
      const m = await this.deps.messages.findById(companyId, id);
      if (!m || m.ticketId !== ticketId) throw new NotFoundError('ERR_NO_MESSAGE_FOUND');
      if (!isAudio(m)) throw new ValidationError('ERR_MESSAGE_NOT_AUDIO');
      found.push(m);
    }
    return found.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  }

  /** The ticket's newest audio messages, oldest first. */
  private async audioOf(companyId: number, ticketId: number): Promise<Message[]> {
    const found: Message[] = [];
    const limit = 100;
    for (let offset = 0; offset < MAX_SCANNED_MEDIA && found.length < MAX_TICKET_AUDIOS; offset += limit) {
      const { rows } = await this.deps.messages.list({ companyId, ticketId, withMedia: true, page: { offset, limit } });
      found.push(...rows.filter(isAudio));
      if (rows.length < limit) break;
    }
    return found.slice(0, MAX_TICKET_AUDIOS).reverse();
  }

  /** The job and its first run are written together; the frame follows the commit. */
  private async startJob(actor: Actor, ticketId: number, credential: TranscriptionCredential, language: string | null, messages: readonly Message[]) {
    const { jobs, jobQueue, tx, clock, ids, realtime } = this.deps;
    const now = clock.now();
    const job: TranscriptionJob = {
      id: ids.uuid(),
      companyId: actor.companyId,
      ticketId,
      userId: actor.userId,
      credentialId: credential.id,
      language,
      status: 'queued',
      items: messages.map((m) => ({ messageId: m.id, status: 'pending', error: null })),
      error: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
    };
    const payload: TranscriptionJobPayload = { companyId: job.companyId, jobId: job.id };
    await tx.run(async () => {
      await jobs.add(job);
      await jobQueue.enqueue({ name: TRANSCRIPTION_JOB, at: now, payload, key: job.id });
    });
    await realtime.publish(job.companyId, { entity: 'transcription', data: { action: 'update', job: toJobView(job) } });
    return job;
  }
}

function outcome(
  messageId: string,
  status: MessageTranscription['status'],
  rest: Partial<Omit<MessageTranscription, 'messageId' | 'status'>> = {},
): MessageTranscription {
  return { messageId, status, text: null, cached: false, error: null, jobId: null, ...rest };
}
