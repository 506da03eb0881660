import { messageContexts } from '../conversations/message-context.js';
import type { SecretCipher } from '../shared/ports.js';
import { PlanGuard } from '../tenancy/plan-guard.js';
import { transcriptionJobs } from '../transcription/jobs.js';
import {
  CreateTranscriptionCredential,
  DeleteTranscriptionCredential,
  ListTranscriptionCredentials,
  SetDefaultTranscriptionCredential,
  ShowDefaultTranscriptionCredential,
  UpdateTranscriptionCredential,
} from '../transcription/manage-credentials.js';
import type { SpeechToText, TranscriptionCredentials, TranscriptionJobs } from '../transcription/ports.js';
import { ExpireTranscriptionJobs, RunTranscriptionJob } from '../transcription/run-transcription-job.js';
import { DEFAULT_TRANSCRIPTION_SETTINGS, TranscribeTicket, type TranscriptionSettings } from '../transcription/transcribe-ticket.js';
import { MessageTranscriber } from '../transcription/transcriber.js';
import { CredentialChoice } from '../transcription/credential-choice.js';
import { TicketAudio } from '../transcription/ticket-audio.js';
import { TicketTranscriptionJobs } from '../transcription/ticket-transcription-jobs.js';
import type { Needs } from './shared-ports.js';

/** The transcription's own ports: its tables, the speech-to-text service, and when audio goes to a job. */
export interface TranscriptionPorts {
  readonly transcriptionCredentials: TranscriptionCredentials;
  readonly transcriptionJobs: TranscriptionJobs;
  readonly speechToText: SpeechToText;
  /** Seals the credentials' API keys at rest. */
  readonly secretCipher: SecretCipher;
  readonly transcriptionSettings?: TranscriptionSettings;
}

/** Speech-to-text of audio messages, through each company's credentials (OpenAI-compatible services). */
export function createTranscription(p: TranscriptionPorts & Needs<'secretCipher'>) {
  const { transcriptionCredentials: credentials, transcriptionJobs: jobs, speechToText, secretCipher: cipher, messages, realtime, tx, clock } = p;
  const settings = p.transcriptionSettings ?? DEFAULT_TRANSCRIPTION_SETTINGS;
  const plan = new PlanGuard({ companies: p.companies, plans: p.plans });
  const contexts = messageContexts({ tickets: p.tickets, contacts: p.contacts, queues: p.queues, messages });
  const transcriber = new MessageTranscriber({ messages, blobs: p.blobs, speechToText, realtime, clock, contexts });
  const manage = { credentials, cipher, speechToText, plan, tx, clock };
  const runTranscriptionJob = new RunTranscriptionJob({ jobs, credentials, messages, cipher, transcriber, jobQueue: p.jobQueue, realtime, clock });
  const expireTranscriptionJobs = new ExpireTranscriptionJobs({ jobs, clock });
  return {
    listTranscriptionCredentials: new ListTranscriptionCredentials(manage),
    showDefaultTranscriptionCredential: new ShowDefaultTranscriptionCredential(manage),
    setDefaultTranscriptionCredential: new SetDefaultTranscriptionCredential(manage),
    createTranscriptionCredential: new CreateTranscriptionCredential(manage),
    updateTranscriptionCredential: new UpdateTranscriptionCredential(manage),
    deleteTranscriptionCredential: new DeleteTranscriptionCredential(manage),
    transcribeTicket: new TranscribeTicket({
      tickets: p.tickets,
      users: p.users,
      plan,
      credentials: new CredentialChoice({ credentials, cipher }),
      audio: new TicketAudio({ messages }),
      transcriber,
      jobs: new TicketTranscriptionJobs({ jobs, jobQueue: p.jobQueue, realtime, tx, clock, ids: p.ids }),
      settings,
    }),
    /** The background job's use cases. */
    runTranscriptionJob,
    expireTranscriptionJobs,
    jobs: () => transcriptionJobs({ runTranscriptionJob, expireTranscriptionJobs }, settings),
  };
}
export type TranscriptionApi = ReturnType<typeof createTranscription>;
