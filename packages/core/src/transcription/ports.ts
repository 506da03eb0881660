import type { NewTranscriptionCredential, TranscriptionCredential } from './credential.js';
import type { TranscriptionJob } from './transcription-job.js';

/** A company's transcription credentials. Every read and write is scoped by company. */
export interface TranscriptionCredentials {
  findById(companyId: number, id: number): Promise<TranscriptionCredential | null>;
  findDefault(companyId: number): Promise<TranscriptionCredential | null>;
  /** By name, without regard to case. */
  findByName(companyId: number, name: string): Promise<TranscriptionCredential | null>;
  /** The default first, then by name. */
  list(companyId: number): Promise<TranscriptionCredential[]>;
  /** Stored with `isDefault` false whatever it says (`setDefault` makes a default). 409 `ERR_TRANSCRIPTION_CREDENTIAL_NAME_IN_USE` for a taken name. */
  add(credential: NewTranscriptionCredential): Promise<TranscriptionCredential>;
  /** Saves every field but `companyId`, `createdAt` and `isDefault`. 409 `ERR_TRANSCRIPTION_CREDENTIAL_NAME_IN_USE` for a taken name. */
  update(credential: TranscriptionCredential): Promise<void>;
  /**
   * Makes the credential the company's only default (every other one stops being it), serialised
   * per company so that two changes at once leave exactly one. False when it is not the company's.
   */
  setDefault(companyId: number, id: number): Promise<boolean>;
  /** False when it was not there. */
  remove(companyId: number, id: number): Promise<boolean>;
}

/** The background transcription jobs and their status. */
export interface TranscriptionJobs {
  findById(companyId: number, id: string): Promise<TranscriptionJob | null>;
  add(job: TranscriptionJob): Promise<void>;
  /** Saves its status, items, error and times. */
  update(job: TranscriptionJob): Promise<void>;
  /** The ticket's jobs still queued or running, oldest first. */
  activeForTicket(companyId: number, ticketId: number): Promise<TranscriptionJob[]>;
  /** Removes up to `limit` finished jobs (done or failed) that finished before `before`; answers how many. */
  removeFinishedBefore(before: Date, limit: number): Promise<number>;
}

/** Where a speech-to-text request goes: an OpenAI-compatible `POST <baseUrl>/audio/transcriptions`. */
export interface SpeechToTextEndpoint {
  readonly baseUrl: string;
  readonly model: string;
  /** Sent as a Bearer token; null sends none (a local server). */
  readonly apiKey: string | null;
}

export interface AudioClip {
  readonly data: Buffer;
  /** `audio/ogg`… (parameters such as `; codecs=opus` allowed). */
  readonly contentType: string;
  readonly filename: string;
}

export interface Transcript {
  /** What was heard, as the service wrote it (empty for silence). */
  readonly text: string;
}

/**
 * Turns speech into text. Adapters refuse endpoints on loopback and private addresses unless the
 * deployment allows them, and answer with domain errors: 422 `ERR_URL_NOT_ALLOWED` (such an
 * address), 422 `ERR_TRANSCRIPTION_PROVIDER_REFUSED` (the service refused: a 4xx but 429), 503
 * `ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE` (no answer, a 5xx, a 429, or an answer that is not a
 * transcription) and 503 `ERR_TRANSCRIPTION_TIMEOUT`. The 503s are worth retrying later; the 422s are not.
 */
export interface SpeechToText {
  transcribe(endpoint: SpeechToTextEndpoint, audio: AudioClip, options?: { readonly language?: string | null }): Promise<Transcript>;
}
