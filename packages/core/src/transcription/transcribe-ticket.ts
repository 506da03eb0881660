import type { Users } from '../identity/ports.js';
import type { Message } from '../messages/message.js';
import type { Actor } from '../shared/actor.js';
import type { ErrorCode } from '../shared/error-codes.js';
import { DomainError, PayloadTooLargeError } from '../shared/errors.js';
import type { Tickets } from '../tickets/ports.js';
import { visibleTicket, visibleTicketByUuid } from '../tickets/ticket-access.js';
import { cleanLanguage } from './credential.js';
import type { CredentialChoice } from './credential-choice.js';
import type { TranscriptionPlan } from './manage-credentials.js';
import type { TicketAudio } from './ticket-audio.js';
import type { TicketTranscriptionJobs } from './ticket-transcription-jobs.js';
import { MAX_AUDIO_BYTES, type MessageTranscriber } from './transcriber.js';
import { toJobView, type TranscriptionJob, type TranscriptionJobView } from './transcription-job.js';

/** Messages one request may name. */
export const MAX_NAMED_MESSAGES = 50;
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
      plan: TranscriptionPlan;
      credentials: CredentialChoice;
      audio: TicketAudio;
      transcriber: MessageTranscriber;
      jobs: TicketTranscriptionJobs;
      settings: TranscriptionSettings;
    },
  ) {}

  async execute(input: TranscribeTicketInput): Promise<TranscribeTicketResult> {
    const { actor } = input;
    await this.deps.plan.assertFeature(actor.companyId, 'ai');
    const ticket =
      typeof input.ticketId === 'number' ? await visibleTicket(this.deps, actor, input.ticketId) : await visibleTicketByUuid(this.deps, actor, input.ticketId);
    const { credential, endpoint } = await this.deps.credentials.choose(actor.companyId, input.credentialId);
    const language = input.language !== undefined && input.language !== null && input.language !== '' ? cleanLanguage(input.language) : credential.language;
    const candidates = input.messageIds
      ? await this.deps.audio.named(ticket.companyId, ticket.id, input.messageIds)
      : await this.deps.audio.newest(ticket.companyId, ticket.id);

    const outcomes = new Map<string, MessageTranscription>();
    const active = await this.deps.jobs.active(ticket.companyId, ticket.id);
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
      started = await this.deps.jobs.start(actor, ticket.id, credential, language, toDo);
      for (const m of toDo) outcomes.set(m.id, outcome(m.id, 'queued', { jobId: started.id }));
    }

    const transcriptions = candidates.map((m) => outcomes.get(m.id)!);
    if (firstFailure && transcriptions.every((t) => t.status === 'failed')) throw firstFailure;
    const pending = transcriptions.some((t) => t.status === 'queued' || t.status === 'running');
    const shown = started ?? active.find((job) => transcriptions.some((t) => t.jobId === job.id)) ?? null;
    return { ticketId: ticket.id, status: pending ? 'queued' : 'done', job: shown && toJobView(shown), transcriptions };
  }
}

function outcome(
  messageId: string,
  status: MessageTranscription['status'],
  rest: Partial<Omit<MessageTranscription, 'messageId' | 'status'>> = {},
): MessageTranscription {
  return { messageId, status, text: null, cached: false, error: null, jobId: null, ...rest };
}
