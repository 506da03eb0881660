import { messageContexts } from '../conversations/message-context.js';
import type { Contacts } from '../contacts/ports.js';
import type { RealtimeEvent } from '../events/realtime-event.js';
import type { Users } from '../identity/ports.js';
import type { Jobs } from '../jobs/jobs.js';
import type { Messages } from '../messages/ports.js';
import type { Queues } from '../queues/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { BlobStorage, Clock, IdGenerator, SecretCipher, Transaction } from '../shared/ports.js';
import { PlanGuard } from '../tenancy/plan-guard.js';
import type { Companies, Plans } from '../tenancy/ports.js';
import type { Tickets } from '../tickets/ports.js';
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

/** The transcription's own ports: its tables, the speech-to-text service, and when audio goes to a job. */
export interface TranscriptionPorts {
  readonly transcriptionCredentials: TranscriptionCredentials;
  readonly transcriptionJobs: TranscriptionJobs;
  readonly speechToText: SpeechToText;
  /** Seals the credentials' API keys at rest. */
  readonly secretCipher: SecretCipher;
  readonly transcriptionSettings?: TranscriptionSettings;
}

interface SharedPorts {
  readonly users: Users;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly tickets: Tickets;
  readonly contacts: Contacts;
  readonly queues: Queues;
  readonly messages: Messages;
  readonly blobs: BlobStorage;
  readonly jobQueue: Jobs;
  readonly realtime: RealtimeEvents<RealtimeEvent>;
  readonly tx: Transaction;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** Speech-to-text of audio messages, through each company's credentials (OpenAI-compatible services). */
export function createTranscription(p: TranscriptionPorts & SharedPorts) {
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
      messages,
      credentials,
      jobs,
      cipher,
      transcriber,
      plan,
      jobQueue: p.jobQueue,
      realtime,
      tx,
      clock,
      ids: p.ids,
      settings,
    }),
    /** The background job's use cases. */
    runTranscriptionJob,
    expireTranscriptionJobs,
    jobs: () => transcriptionJobs({ runTranscriptionJob, expireTranscriptionJobs }, settings),
  };
}
export type TranscriptionApi = ReturnType<typeof createTranscription>;
