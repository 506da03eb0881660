import { exponentialBackoff, type JobDefinition } from '../jobs/job.js';
import {
  EXPIRE_TRANSCRIPTION_JOBS,
  TRANSCRIPTION_JOB,
  TRANSCRIPTION_MAX_ATTEMPTS,
  TRANSCRIPTIONS_PER_RUN,
  type ExpireTranscriptionJobs,
  type RunTranscriptionJob,
  type TranscriptionJobPayload,
} from './run-transcription-job.js';

/**
 * The transcription's background work: each run of a job (one-off, not atomic: every message's
 * outcome commits on its own, and no transaction is held while the service is asked) and the
 * hourly clean-up of finished jobs. A run's lease outlasts its five calls at the adapter's timeout.
 */
export function transcriptionJobs(
  api: { readonly runTranscriptionJob: RunTranscriptionJob; readonly expireTranscriptionJobs: ExpireTranscriptionJobs },
  settings: { readonly timeoutMs: number },
): JobDefinition<any>[] {
  const run: JobDefinition<TranscriptionJobPayload> = {
    name: TRANSCRIPTION_JOB,
    atomic: false,
    leaseMs: TRANSCRIPTIONS_PER_RUN * settings.timeoutMs + 5 * 60_000,
    maxAttempts: TRANSCRIPTION_MAX_ATTEMPTS,
    backoff: exponentialBackoff(10_000, 5 * 60_000),
    run: async (ctx) => {
      await api.runTranscriptionJob.execute(ctx.payload, ctx.attempt);
    },
  };
  const expire: JobDefinition = {
    name: EXPIRE_TRANSCRIPTION_JOBS,
    every: 3_600_000,
    run: async () => {
      await api.expireTranscriptionJobs.execute();
    },
  };
  return [run, expire];
}
