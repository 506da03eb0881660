import type { Jobs } from '../jobs/jobs.js';
import type { Messages } from '../messages/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { ErrorCode } from '../shared/error-codes.js';
import { DomainError, NotFoundError, ServiceUnavailableError } from '../shared/errors.js';
import type { Clock, SecretCipher } from '../shared/ports.js';
import { endpointOf } from './manage-credentials.js';
import type { SpeechToTextEndpoint, TranscriptionCredentials, TranscriptionJobs } from './ports.js';
import type { MessageTranscriber } from './transcriber.js';
import type { TranscriptionEvent } from './transcription-events.js';
import { isActive, toJobView, type TranscriptionJob } from './transcription-job.js';

/** The one-off job that transcribes a background job's messages. */
export const TRANSCRIPTION_JOB = 'transcription.run';
/** The recurring job that forgets finished jobs. */
export const EXPIRE_TRANSCRIPTION_JOBS = 'transcription.expire-jobs';
/** Tries of a run that keeps meeting an unavailable service before its messages are marked failed. */
export const TRANSCRIPTION_MAX_ATTEMPTS = 3;
/** Messages one run transcribes before handing over to the next run (its lease is sized for them). */
export const TRANSCRIPTIONS_PER_RUN = 5;
/** Finished jobs are kept this long (their status stays readable in frames' replays and the database). */
export const FINISHED_JOB_RETENTION_MS = 7 * 24 * 3_600_000;

export interface TranscriptionJobPayload {
  readonly companyId: number;
  readonly jobId: string;
}

/**
 * One run of a transcription job: marks it `running`, transcribes up to five pending messages (each
 * outcome saved and sent as a `transcription` frame as it comes; each transcript on its message
 * with an `appMessage` `update`), then enqueues the next run or ends the job: `done`, or `failed`
 * when no message could be transcribed. An unavailable service (503s) fails the run, which is
 * retried with backoff from where it stopped; on the last try the messages left fail with that
 * code. A refusal (422s: a bad key, an audio the service does not read) fails its message at once.
 */
export class RunTranscriptionJob {
  constructor(
    private readonly deps: {
      jobs: TranscriptionJobs;
      credentials: TranscriptionCredentials;
      messages: Messages;
      cipher: SecretCipher;
      transcriber: MessageTranscriber;
      jobQueue: Jobs;
      realtime: RealtimeEvents<TranscriptionEvent>;
      clock: Clock;
    },
  ) {}

  async execute(payload: TranscriptionJobPayload, attempt = 1): Promise<void> {
    const job = await this.deps.jobs.findById(payload.companyId, payload.jobId);
    if (!job || !isActive(job)) return;
    const last = attempt >= TRANSCRIPTION_MAX_ATTEMPTS;
    try {
      await this.work(job, last);
    } catch (err) {
      if (!last) throw err;
      await this.finish(job, err instanceof DomainError ? err.code : 'ERR_TRANSCRIPTION_JOB_FAILED');
    }
  }

  private async work(job: TranscriptionJob, last: boolean): Promise<void> {
    const { credentials, messages, cipher, transcriber, jobQueue, clock } = this.deps;
    if (job.status === 'queued') await this.save(job, { status: 'running' });
    const credential = job.credentialId === null ? null : await credentials.findById(job.companyId, job.credentialId);
    if (!credential) return this.finish(job, 'ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND');
    let endpoint: SpeechToTextEndpoint;
    try {
      endpoint = endpointOf(cipher, credential);
    } catch (err) {
      if (err instanceof DomainError) return this.finish(job, err.code);
      throw err;
    }
    let ran = 0;
    for (const item of job.items) {
      if (item.status !== 'pending') continue;
      if (ran === TRANSCRIPTIONS_PER_RUN) {
        const handled = job.items.filter((i) => i.status !== 'pending').length;
        await jobQueue.enqueue({ name: TRANSCRIPTION_JOB, at: clock.now(), payload: { companyId: job.companyId, jobId: job.id }, key: `${job.id}:${handled}` });
        return;
      }
      ran++;
      try {
        const message = await messages.findById(job.companyId, item.messageId);
        if (!message || message.ticketId !== job.ticketId) throw new NotFoundError('ERR_NO_MESSAGE_FOUND');
        await transcriber.transcribe(endpoint, message, job.language);
        item.status = 'done';
      } catch (err) {
        if (!(err instanceof DomainError) || (err instanceof ServiceUnavailableError && !last)) throw err;
        item.status = 'failed';
        item.error = err.code;
      }
      await this.save(job, {});
    }
    await this.finish(job, null);
  }

  /** Ends the job; `error` fails the messages still pending with it. */
  private async finish(job: TranscriptionJob, error: ErrorCode | null): Promise<void> {
    for (const item of job.items) {
      if (item.status === 'pending' && error) Object.assign(item, { status: 'failed', error });
    }
    const anyDone = job.items.some((i) => i.status === 'done');
    const failed = job.items.length > 0 && !anyDone;
    await this.save(job, { status: failed ? 'failed' : 'done', error: failed ? (error ?? job.items[0]!.error) : null, finishedAt: this.deps.clock.now() });
  }

  private async save(job: TranscriptionJob, change: Partial<TranscriptionJob>): Promise<void> {
    Object.assign(job, change, { updatedAt: this.deps.clock.now() });
    await this.deps.jobs.update(job);
    await this.deps.realtime.publish(job.companyId, { entity: 'transcription', data: { action: 'update', job: toJobView(job) } });
  }
}

/** The recurring clean-up: finished jobs older than a week go, a thousand at a time. */
export class ExpireTranscriptionJobs {
  constructor(private readonly deps: { jobs: TranscriptionJobs; clock: Clock }) {}

  async execute(): Promise<number> {
    return this.deps.jobs.removeFinishedBefore(new Date(this.deps.clock.now().getTime() - FINISHED_JOB_RETENTION_MS), 1_000);
  }
}
