import type { QueryClient } from '@tanstack/react-query';
import type { Schema } from '../api/client.js';

/** A background transcription job (`TranscriptionJobView`), as `POST /transcription/:ticketId` answers it with 202. */
export type TranscriptionJob = NonNullable<Schema<'TranscriptionResult'>['job']>;

/** Where a job's state is kept: its `transcription` frames land here (the transcripts come as `appMessage` updates). */
export const transcriptionJobKey = (jobId: string) => ['transcriptionJob', jobId] as const;

/** A `transcription` frame (`update`, with the `job`): its state for the "Transcribe" that started it. */
export function applyTranscriptionFrame(client: QueryClient, data: Record<string, unknown>): void {
  const job = data.job as TranscriptionJob | undefined;
  if (job && typeof job.id === 'string') client.setQueryData(transcriptionJobKey(job.id), job);
}
