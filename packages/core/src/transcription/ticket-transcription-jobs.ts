import type { Jobs } from '../jobs/jobs.js';
import type { Message } from '../messages/message.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { Actor } from '../shared/actor.js';
import type { Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { TranscriptionCredential } from './credential.js';
import type { TranscriptionJobs } from './ports.js';
import { TRANSCRIPTION_JOB, type TranscriptionJobPayload } from './run-transcription-job.js';
import type { TranscriptionEvent } from './transcription-events.js';
import { toJobView, type TranscriptionJob } from './transcription-job.js';

/** A ticket's background transcription jobs: those under way, and a new one started. */
export class TicketTranscriptionJobs {
  constructor(
    private readonly deps: {
      jobs: TranscriptionJobs;
      jobQueue: Pick<Jobs, 'enqueue'>;
      realtime: RealtimeEvents<TranscriptionEvent>;
      tx: Transaction;
      clock: Clock;
      ids: IdGenerator;
    },
  ) {}

  async active(companyId: number, ticketId: number): Promise<TranscriptionJob[]> {
    return this.deps.jobs.activeForTicket(companyId, ticketId);
  }

  /** The job and its first run are written together; the frame follows the commit. */
  async start(
    actor: Actor,
    ticketId: number,
    credential: TranscriptionCredential,
    language: string | null,
    messages: readonly Message[],
  ): Promise<TranscriptionJob> {
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
