import type { BackgroundJobs } from '../shared/background-jobs.js';
import type { ServiceWindows } from '../bizchat/service-window.js';
import type { Categories, Products } from '../catalog/ports.js';
import type { Invoices } from '../company-api/ports.js';
import type { ChannelQueries } from '../connections/check-number.js';
import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { RealtimeEvent } from '../events/realtime-event.js';
import type { FileLists } from '../files/ports.js';
import type { Users } from '../identity/ports.js';
import type { Jobs } from '../jobs/jobs.js';
import type { MessageContextReads, Messages } from '../messages/ports.js';
import type { Broker } from '../outbox/broker.js';
import type { Outbox } from '../outbox/ports.js';
import type { PromptSettings } from '../prompts/manage-prompts.js';
import type { LanguageModel, Prompts } from '../prompts/ports.js';
import type { Proxies, ProxyAssignments } from '../proxies/ports.js';
import type { QueueIntegrations, Queues } from '../queues/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { Settings } from '../settings/ports.js';
import type { BlobStorage, Cache, Clock, IdGenerator, SecretCipher, SecretDigester, Transaction } from '../shared/ports.js';
import type { Tags } from '../tags/ports.js';
import type { Companies, CompanySuspensions, Plans } from '../tenancy/ports.js';
import type { TicketTracking } from '../tickets/ticket-tracking.js';
import type { Tickets } from '../tickets/ports.js';
import type { SpeechToText, TranscriptionCredentials } from '../transcription/ports.js';

/**
 * The ports a feature borrows: the platform's (clock, transactions, ids, realtime, cache, blobs,
 * broker, jobs) and the rows other features own. One type for every module of `compose/`: a
 * factory takes `FeaturePorts & SharedPorts`, its own ports first. A port some features may go
 * without is optional here; a feature that cannot names it in `Needs<…>`.
 */
export interface SharedPorts {
  readonly clock: Clock;
  readonly tx: Transaction;
  readonly ids: IdGenerator;
  readonly realtime: RealtimeEvents<RealtimeEvent>;
  readonly cache: Cache;
  readonly blobs: BlobStorage;
  readonly broker: Broker;
  /** Runs work after the request that started it (contact imports, reset e-mails). */
  readonly jobs: BackgroundJobs;
  /** Enqueues one-off jobs for a moment (a scheduled send); their handlers are the features' job definitions. */
  readonly jobQueue: Jobs;
  /** The platform's keyed digest: reset tokens are stored as digests. */
  readonly digester: SecretDigester;
  /** Number checks and contact reads answered by a channel runtime. */
  readonly channelQueries: ChannelQueries;
  readonly users: Users;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly settings: Settings;
  readonly connections: Connections;
  readonly contacts: Contacts;
  readonly tickets: Tickets;
  readonly messages: Messages;
  readonly outbox: Outbox;
  readonly queues: Queues;
  readonly queueIntegrations: QueueIntegrations;
  readonly tags: Tags;
  readonly invoices: Invoices;
  readonly fileLists: FileLists;
  readonly languageModel: LanguageModel;
  readonly speechToText: SpeechToText;
  readonly transcriptionCredentials: TranscriptionCredentials;
  /** When each contact last wrote to a bizchat connection (bizchat's): free-form sends need it within 24 hours. */
  readonly serviceWindows: ServiceWindows;
  /** See MessagingPorts. */
  readonly relayAfterCommit?: boolean;
  /** Attendance cycles: absent, nothing is tracked. */
  readonly ticketTracking?: TicketTracking;
  /** Companies suspended for an overdue invoice (billing's): nobody of them sends. Absent: none is. */
  readonly companySuspensions?: CompanySuspensions;
  /** Tickets and contacts of message views in one read (a database's); absent: the repositories are asked. */
  readonly messageContextReads?: MessageContextReads;
  /** The proxy pools: with them, session commands carry the connection's proxy. */
  readonly proxies?: Proxies;
  readonly proxyAssignments?: ProxyAssignments;
  /** Encrypts the secrets features store (API keys, tokens); required by those that store any. */
  readonly secretCipher?: SecretCipher;
  /** The prompts a connection or a flow may point to; without them a connection's `promptId` can only be null. */
  readonly prompts?: Prompts;
  readonly promptSettings?: PromptSettings;
  /** The company's catalog, which `sendCatalog` reads; without it no product is found. */
  readonly products?: Products;
  /** The catalog's categories, which `sendCatalog` checks a `categoryId` against; without them none is found. */
  readonly categories?: Categories;
}

/** The shared ports with the optional ones a feature cannot go without made required. */
export type Needs<K extends keyof SharedPorts> = SharedPorts & Required<Pick<SharedPorts, K>>;
