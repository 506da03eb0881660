import type { ErrorCode } from '../shared/error-codes.js';

/**
 * Audio too long to transcribe while the request waits is transcribed by a background job: its
 * status (`queued` → `running` → `done`, or `failed` when no message could be transcribed) and each
 * message's outcome are kept here and sent as `transcription` frames.
 */
export type TranscriptionJobStatus = 'queued' | 'running' | 'done' | 'failed';
export const TRANSCRIPTION_JOB_STATUSES: readonly TranscriptionJobStatus[] = ['queued', 'running', 'done', 'failed'];

export type TranscriptionItemStatus = 'pending' | 'done' | 'failed';

/** One message of a job and what became of it. */
export interface TranscriptionItem {
  messageId: string;
  status: TranscriptionItemStatus;
  /** Why it failed (`ERR_TRANSCRIPTION_PROVIDER_REFUSED`…); null otherwise. */
  error: ErrorCode | null;
}

export interface TranscriptionJob {
  /** A uuid. */
  id: string;
  companyId: number;
  ticketId: number;
  /** Who asked; null once that user is removed. */
  userId: number | null;
  /** The credential it transcribes with; null once that credential is removed (the job then fails). */
  credentialId: number | null;
  language: string | null;
  status: TranscriptionJobStatus;
  /** In the order they were asked for (oldest message first). */
  items: TranscriptionItem[];
  /** Why the whole job failed, when it did. */
  error: ErrorCode | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

export interface TranscriptionJobView {
  id: string;
  ticketId: number;
  status: TranscriptionJobStatus;
  total: number;
  done: number;
  failed: number;
  items: TranscriptionItem[];
  error: ErrorCode | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export function isActive(job: Pick<TranscriptionJob, 'status'>): boolean {
  return job.status === 'queued' || job.status === 'running';
}

export function toJobView(job: TranscriptionJob): TranscriptionJobView {
  const count = (status: TranscriptionItemStatus) => job.items.filter((i) => i.status === status).length;
  return {
    id: job.id,
    ticketId: job.ticketId,
    status: job.status,
    total: job.items.length,
    done: count('done'),
    failed: count('failed'),
    items: job.items.map((i) => ({ ...i })),
    error: job.error,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
    finishedAt: job.finishedAt ? job.finishedAt.toISOString() : null,
  };
}
