import type { Campaign, CampaignMedia, CampaignStatus, NewCampaign } from './campaign.js';
import type { CampaignSettingRow } from './campaign-settings.js';
import type { ConnectionPacingState } from './pacing.js';
import type { CampaignProgress, CampaignRecipient, NewRecipient, RecipientState } from './recipient.js';

/** A company's campaigns. Every read and write is scoped by `companyId` (another company's id is absent). */
export interface Campaigns {
  findById(companyId: number, id: number): Promise<Campaign | null>;
  add(campaign: NewCampaign): Promise<Campaign>;
  /** Saves every field but `status` (which only `transition` changes). */
  update(campaign: Campaign): Promise<void>;
  /**
   * Moves the campaign to `to` only if its stored status is one of `from`, with the other fields
   * of `patch`, in one conditional update (`UPDATE … WHERE status IN (…)`). True when it applied:
   * of two instances trying the same move, exactly one gets true.
   */
  transition(
    companyId: number,
    id: number,
    from: readonly CampaignStatus[],
    to: CampaignStatus,
    patch?: Partial<Pick<Campaign, 'completedAt' | 'failureReason' | 'materializedAt' | 'updatedAt'>>,
  ): Promise<boolean>;
  /** `PROGRAMADA` campaigns (every company) whose `scheduledAt` is at or before `now`, however long ago, oldest first. */
  dueScheduled(now: Date, limit: number): Promise<Campaign[]>;
  /** Running campaigns (every company) not yet materialised: a start that died half-way. */
  runningUnmaterialised(limit: number): Promise<Campaign[]>;
  /**
   * The stored status, for a send about to be written: inside a transaction the SQL adapter
   * share-locks the row until the commit, so a pause or cancel waits for a send already deciding
   * and every send after it sees the new status.
   */
  statusForSend(companyId: number, id: number): Promise<CampaignStatus | null>;
  /** The running campaigns that send through this connection. */
  runningOnConnection(connectionId: number): Promise<Campaign[]>;
  /**
   * A page of the company's campaigns for `GET /campaigns`: `search` matches the name
   * case- and accent-insensitively; ordered by status, then `scheduledAt` newest first (nulls last), then id.
   */
  page(companyId: number, filter: { search?: string; offset: number; limit: number }): Promise<{ rows: Campaign[]; count: number }>;
  /** Every campaign of the company, by name (`GET /campaigns/list`). */
  all(companyId: number): Promise<Campaign[]>;
  /** Deletes the campaign and its recipients; false when it was not there. */
  remove(companyId: number, id: number): Promise<boolean>;
  /** The company's campaigns that will still read this contact list when they start (not yet materialised, not ended). */
  pendingOnContactList(companyId: number, contactListId: number): Promise<Campaign[]>;
}

/**
 * The materialised recipients: unique per `(campaignId, number)`. The SQL adapter implements
 * `claimNext` with `FOR UPDATE SKIP LOCKED`, so concurrent dispatchers never take the same row.
 */
/** A delivery report on a campaign message, as recipients take it. */
export interface RecipientProgress {
  readonly messageId: string;
  readonly state: 'delivered' | 'read' | 'failed';
  readonly at: Date;
  readonly reason?: string | null;
}

export interface CampaignRecipients {
  /** Adds the recipients; a number already present in the campaign is left as it is. Answers how many were added. */
  addMany(recipients: readonly NewRecipient[]): Promise<number>;
  findById(companyId: number, id: number): Promise<CampaignRecipient | null>;
  findByMessageId(messageId: string): Promise<CampaignRecipient | null>;
  /** The recipients with this canonical number in campaigns of this connection, newest campaign first. */
  findByNumber(companyId: number, connectionId: number, number: string): Promise<CampaignRecipient[]>;
  /**
   * Takes the next due recipient of the connection: `pending`, `dueAt` ≤ now, not held by a live
   * claim, of a campaign that is `EM_ANDAMENTO`; oldest campaign first, then recipient id. The
   * recipient is held until `claimedUntil` (the claim lapses if this dispatcher dies).
   */
  claimNext(connectionId: number, now: Date, claimedUntil: Date): Promise<CampaignRecipient | null>;
  /** Saves every field. */
  update(recipient: CampaignRecipient): Promise<void>;
  /**
   * The channel's word on the recipients whose current messages are the changes' `messageId`s,
   * each change one conditional update that only moves forward: `delivered` from `sent`, `read`
   * from `sent` or `delivered` (setting `deliveredAt` if still unset), `failed` from `sent`,
   * `delivered` or `read`. Reports handled at once (a delivery and a read) can never move a
   * recipient back; one message's changes apply in the order given. Answers, for each change,
   * the recipient after it, or null when it changed nothing.
   */
  advanceByMessages(changes: readonly RecipientProgress[]): Promise<Array<CampaignRecipient | null>>;
  /** Ends the claim without any other change (the campaign was paused meanwhile, the connection went down). */
  release(id: number, dueAt?: Date): Promise<void>;
  /** Counts per state of one campaign. */
  progress(companyId: number, campaignId: number): Promise<CampaignProgress>;
  /** Whether the campaign still has a recipient `pending` (claimed or not). */
  hasPending(campaignId: number): Promise<boolean>;
  /** The earliest `dueAt` of the connection's pending recipients of running campaigns (a retry, a confirmed message), or null. */
  nextDue(connectionId: number): Promise<Date | null>;
  /** The confirmation questions of a campaign still waiting at `now` (`awaitingUntil` later than now). */
  countAwaiting(campaignId: number, now: Date): Promise<number>;
  /** The earliest `awaitingUntil` still in the future of the campaign, or null. */
  nextAwaitingExpiry(campaignId: number, now: Date): Promise<Date | null>;
  /** Marks every question unanswered by `now` `skipped` (`no-confirmation`); answers how many. */
  expireAwaiting(campaignId: number, now: Date): Promise<number>;
  /** A page of one campaign's recipients for the report, optionally in one state. */
  list(
    companyId: number,
    campaignId: number,
    filter: { state?: RecipientState; offset: number; limit: number },
  ): Promise<{ rows: CampaignRecipient[]; count: number }>;
}

/** Per-connection pacing state and send history, shared by every instance (a table, not process memory). */
export interface CampaignPacing {
  /** The state (the initial one when none is stored); inside a transaction the SQL adapter locks its row until the commit. */
  get(connectionId: number): Promise<ConnectionPacingState>;
  save(state: ConnectionPacingState): Promise<void>;
  /** The connection's campaign sends since `since` (every campaign): the caps count them. */
  sendsSince(connectionId: number, since: Date): Promise<Date[]>;
  recordSend(connectionId: number, at: Date): Promise<void>;
  /**
   * When the connection's dispatcher should run next (null: only when woken). With `unlessWokenAfter`
   * (the end of a dispatcher run, passing when it started) it is kept if a wake-up set it later than
   * that: a start or resume during the run is never overwritten.
   */
  setNextRun(companyId: number, connectionId: number, at: Date | null, unlessWokenAfter?: Date): Promise<void>;
  /** The connections whose next run is at or before `now`. */
  dueConnections(now: Date, limit: number): Promise<Array<{ companyId: number; connectionId: number }>>;
  /**
   * Makes every planned run of the company's connections `at` (their settings changed, so the
   * wait each computed may be wrong); a connection with none planned stays so. Moving a run that
   * is due or in progress to `at` too means a run that started before `at` keeps this wake-up.
   */
  wakeCompany(companyId: number, at: Date): Promise<void>;
}

/** A contact-list row as a campaign sees it. */
export interface AudienceListItem {
  readonly id: number;
  readonly name: string;
  readonly number: string;
  readonly email: string;
  /** The validity check's verdict; only `invalid` excludes (a session that was down gives `error`, which is sent). */
  readonly validity: 'unknown' | 'valid' | 'invalid' | 'error';
  /** Extra spreadsheet columns, usable as `{column}`. */
  readonly variables: Readonly<Record<string, string>>;
}

/** A CRM contact as a campaign sees it. */
export interface AudienceContact {
  readonly id: number;
  readonly name: string;
  readonly number: string;
  readonly email: string | null;
  readonly blocked: boolean;
  readonly isGroup: boolean;
}

/**
 * Where recipients come from at start: a contact list's items, the contacts carrying a tag,
 * and the CRM contacts behind numbers (to exclude blocked ones). Scoped by company.
 */
export interface CampaignAudience {
  listItems(companyId: number, contactListId: number): Promise<AudienceListItem[]>;
  contactsWithTag(companyId: number, tagId: number): Promise<AudienceContact[]>;
  /** The contacts whose canonical number is one of these (a Brazilian mobile written either way counts). */
  contactsByNumbers(companyId: number, canonicalNumbers: readonly string[]): Promise<AudienceContact[]>;
}

/** The company's suppression list: numbers (canonical) that asked never to receive campaigns again. */
export interface Suppressions {
  /** Those of `numbers` that are suppressed. */
  suppressed(companyId: number, numbers: readonly string[]): Promise<Set<string>>;
  /** Adding a number twice keeps the first entry. */
  add(entry: { companyId: number; number: string; reason: string; campaignId: number | null; createdAt: Date }): Promise<void>;
}

/** The campaign settings rows and the company's time zone (the `timezone` company setting). */
export interface CampaignSettingsStore {
  rows(companyId: number): Promise<CampaignSettingRow[]>;
  /** Upserts these rows by `(companyId, key)` (others stay) and answers every stored row of the company. */
  save(companyId: number, rows: readonly CampaignSettingRow[]): Promise<StoredCampaignSetting[]>;
  timeZone(companyId: number): Promise<string>;
}

/** A stored settings row as `GET /campaign-settings` answers it. */
export interface StoredCampaignSetting extends CampaignSettingRow {
  readonly id: number;
  readonly companyId: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export type CampaignReferenceKind = 'contactList' | 'tag' | 'connection' | 'user' | 'queue';

/** The names of what campaigns point at, in the caller's company (an id of another company is absent from the answer). */
export interface CampaignReferences {
  names(companyId: number, kind: CampaignReferenceKind, ids: readonly number[]): Promise<Map<number, string>>;
}

/** Whether a connection may send now (its session `CONNECTED`), and what kind it is. */
export interface CampaignConnections {
  find(
    companyId: number,
    connectionId: number,
  ): Promise<{ id: number; companyId: number; kind: 'chatapp' | 'socialnet' | 'bizchat'; connected: boolean } | null>;
}

/** One send the dispatcher hands to the send path. */
export interface CampaignSend {
  readonly companyId: number;
  readonly connectionId: number;
  readonly campaignId: number;
  readonly recipientId: number;
  /**
   * Derived from campaign, recipient and stage: the adapter must make two sends with one key one
   * message (a retry after a crash finds the first one), e.g. by deriving the message id from it.
   */
  readonly idempotencyKey: string;
  readonly number: string;
  readonly name: string;
  readonly contactId: number | null;
  readonly body: string;
  readonly media: CampaignMedia | null;
  /** From the campaign: open (or reuse) a ticket with this status, owner and queue, or send out of ticket. */
  readonly openTicket: boolean;
  readonly statusTicket: 'open' | 'pending' | 'closed';
  readonly userId: number | null;
  readonly queueId: number | null;
}

export type CampaignSendResult =
  | { readonly ok: true; readonly messageId: string }
  /** `retryable`: the connection or the send path is not ready (try the same recipient later); otherwise the recipient fails. */
  | { readonly ok: false; readonly reason: string; readonly retryable: boolean };

/**
 * The campaign's way into the one send path. The production adapter calls
 * `conversations`' outbound (`OutboundMessages.enqueue`: message `pending` + outbox command, in
 * the caller's transaction), finding or creating the contact and, with `openTicket`, its ticket.
 */
export interface CampaignSender {
  send(send: CampaignSend): Promise<CampaignSendResult>;
}
