import type { MikroORM } from '@mikro-orm/core';
import {
  foldForSearch,
  initialPacingState,
  type AudienceContact,
  type AudienceListItem,
  type Campaign,
  type CampaignAudience,
  type CampaignMedia,
  type CampaignPacing,
  type CampaignProgress,
  type CampaignRecipient,
  type CampaignRecipients,
  type Campaigns,
  type CampaignSettingRow,
  type CampaignSettingsStore,
  type CampaignStatus,
  type ConnectionPacingState,
  type NewCampaign,
  type NewRecipient,
  type RecipientProgress,
  type RecipientState,
  type StoredCampaignSetting,
  type Suppressions,
} from '@servicedesk/core';
import { likeTerm, MikroOrmRepository } from '../shared/context.js';
import { foldSql } from '../shared/search.js';
import { changeRounds, marks, slices } from '../shared/sql.js';

type Time = Date | string;
type Row = Record<string, unknown>;

const time = (v: unknown) => new Date(v as Time);
const maybeTime = (v: unknown) => (v === null || v === undefined ? null : new Date(v as Time));
const maybeNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));
/** A jsonb value: the driver may hand it over parsed or as text. */
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
const mediaOf = (r: Row): CampaignMedia | null =>
  r.media_path === null || r.media_path === undefined
    ? null
    : { path: String(r.media_path), name: String(r.media_name ?? ''), contentType: String(r.media_content_type ?? ''), size: Number(r.media_size ?? 0) };
const mediaValues = (m: CampaignMedia | null) => [m?.path ?? null, m?.name ?? null, m?.contentType ?? null, m?.size ?? null];
/** A timestamp inside a JSON batch (cast back to timestamptz by the statement). */
const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** The statuses in which a campaign not yet materialised will still read its contact list. */
const NOT_STARTED_OR_RUNNING: readonly CampaignStatus[] = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO'];
/** A confirmation question sent and not yet answered (`isAwaitingConfirmation`). */
const AWAITING = `stage = 'confirmation' and state in ('sent', 'delivered', 'read')`;
/** Rows in one statement of `addMany`: a few statements for a campaign of 10,000. */
const INSERT_CHUNK = 1000;

// --- campaigns ---------------------------------------------------------------------------------

/** Every column `update` writes, in the order of `campaignValues`. */
const CAMPAIGN_FIELDS = [
  'name',
  'message1',
  'message2',
  'message3',
  'message4',
  'message5',
  'confirmation_message1',
  'confirmation_message2',
  'confirmation_message3',
  'confirmation_message4',
  'confirmation_message5',
  'confirmation',
  'scheduled_at',
  'completed_at',
  'media_path',
  'media_name',
  'media_content_type',
  'media_size',
  'contact_list_id',
  'tag_list_id',
  'chatapp_id',
  'user_id',
  'queue_id',
  'status_ticket',
  'open_ticket',
  'materialized_at',
  'failure_reason',
  'created_at',
  'updated_at',
] as const;

function campaignValues(c: NewCampaign): unknown[] {
  return [
    c.name,
    c.message1,
    c.message2,
    c.message3,
    c.message4,
    c.message5,
    c.confirmationMessage1,
    c.confirmationMessage2,
    c.confirmationMessage3,
    c.confirmationMessage4,
    c.confirmationMessage5,
    c.confirmation,
    c.scheduledAt,
    c.completedAt,
    ...mediaValues(c.media),
    c.contactListId,
    c.tagListId,
    c.chatappId,
    c.userId,
    c.queueId,
    c.statusTicket,
    c.openTicket,
    c.materializedAt,
    c.failureReason,
    c.createdAt,
    c.updatedAt,
  ];
}

const CAMPAIGN_COLUMNS = `id, company_id, status, ${CAMPAIGN_FIELDS.join(', ')}`;

function toCampaign(r: Row): Campaign {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    name: String(r.name),
    message1: String(r.message1),
    message2: String(r.message2),
    message3: String(r.message3),
    message4: String(r.message4),
    message5: String(r.message5),
    confirmationMessage1: String(r.confirmation_message1),
    confirmationMessage2: String(r.confirmation_message2),
    confirmationMessage3: String(r.confirmation_message3),
    confirmationMessage4: String(r.confirmation_message4),
    confirmationMessage5: String(r.confirmation_message5),
    confirmation: Boolean(r.confirmation),
    status: r.status as CampaignStatus,
    scheduledAt: maybeTime(r.scheduled_at),
    completedAt: maybeTime(r.completed_at),
    media: mediaOf(r),
    contactListId: maybeNumber(r.contact_list_id),
    tagListId: maybeNumber(r.tag_list_id),
    chatappId: maybeNumber(r.chatapp_id),
    userId: maybeNumber(r.user_id),
    queueId: maybeNumber(r.queue_id),
    statusTicket: r.status_ticket as Campaign['statusTicket'],
    openTicket: r.open_ticket as Campaign['openTicket'],
    materializedAt: maybeTime(r.materialized_at),
    failureReason: (r.failure_reason as string | null) ?? null,
    createdAt: time(r.created_at),
    updatedAt: time(r.updated_at),
  };
}

/** The columns `transition` may set besides the status. */
const TRANSITION_PATCH: Record<'completedAt' | 'failureReason' | 'materializedAt' | 'updatedAt', string> = {
  completedAt: 'completed_at',
  failureReason: 'failure_reason',
  materializedAt: 'materialized_at',
  updatedAt: 'updated_at',
};

/** `campaigns`, scoped by company; the status moves only through `transition`'s conditional update. */
export class MikroOrmCampaigns extends MikroOrmRepository implements Campaigns {
  private async select(where: string, params: unknown[], tail = ''): Promise<Campaign[]> {
    const rows = await this.em.execute<Row[]>(`select ${CAMPAIGN_COLUMNS} from campaigns where ${where} ${tail}`, params);
    return rows.map(toCampaign);
  }

  async findById(companyId: number, id: number) {
    return (await this.select('id = ? and company_id = ?', [id, companyId]))[0] ?? null;
  }

  async add(campaign: NewCampaign): Promise<Campaign> {
    const [row] = await this.em.execute<Row[]>(
      `insert into campaigns (company_id, status, ${CAMPAIGN_FIELDS.join(', ')}) values (?, ?, ${marks(CAMPAIGN_FIELDS.length)}) returning id`,
      [campaign.companyId, campaign.status, ...campaignValues(campaign)],
    );
    return { ...campaign, id: Number(row!.id) };
  }

  async update(campaign: Campaign) {
    await this.em.execute(`update campaigns set ${CAMPAIGN_FIELDS.map((f) => `${f} = ?`).join(', ')} where id = ? and company_id = ?`, [
      ...campaignValues(campaign),
      campaign.id,
      campaign.companyId,
    ]);
  }

  async transition(
    companyId: number,
    id: number,
    from: readonly CampaignStatus[],
    to: CampaignStatus,
    patch: Partial<Pick<Campaign, 'completedAt' | 'failureReason' | 'materializedAt' | 'updatedAt'>> = {},
  ) {
    if (!from.length) return false;
    const sets = ['status = ?'];
    const values: unknown[] = [to];
    for (const [key, column] of Object.entries(TRANSITION_PATCH) as Array<[keyof typeof TRANSITION_PATCH, string]>) {
      if (patch[key] === undefined) continue;
      sets.push(`${column} = ?`);
      values.push(patch[key]);
    }
    const rows = await this.em.execute<Row[]>(
      `update campaigns set ${sets.join(', ')} where id = ? and company_id = ? and status in (${marks(from.length)}) returning id`,
      [...values, id, companyId, ...from],
    );
    return rows.length > 0;
  }

  dueScheduled(now: Date, limit: number) {
    return this.select(`status = 'PROGRAMADA' and scheduled_at <= ?`, [now, limit], 'order by scheduled_at, id limit ?');
  }

  runningUnmaterialised(limit: number) {
    return this.select(`status = 'EM_ANDAMENTO' and materialized_at is null`, [limit], 'order by id limit ?');
  }

  /** Share-locked: a status change waits for the send transaction that read it. */
  async statusForSend(companyId: number, id: number) {
    const [row] = await this.em.execute<Array<{ status: CampaignStatus }>>('select status from campaigns where id = ? and company_id = ? for share', [
      id,
      companyId,
    ]);
    return row ? row.status : null;
  }

  runningOnConnection(connectionId: number) {
    return this.select(`chatapp_id = ? and status = 'EM_ANDAMENTO'`, [connectionId], 'order by id');
  }

  async page(companyId: number, filter: { search?: string; offset: number; limit: number }) {
    const search = filter.search?.trim() ? likeTerm(foldForSearch(filter.search)) : null;
    const where = `company_id = ?${search === null ? '' : ` and ${foldSql('name')} like ?`}`;
    const params = search === null ? [companyId] : [companyId, search];
    const [counted] = await this.em.execute<Array<{ n: string | number }>>(`select count(*) as n from campaigns where ${where}`, params);
    const rows = await this.select(where, [...params, filter.limit, filter.offset], 'order by status, scheduled_at desc nulls last, id limit ? offset ?');
    return { rows, count: Number(counted?.n ?? 0) };
  }

  all(companyId: number) {
    return this.select('company_id = ?', [companyId], `order by ${foldSql('name')}, id`);
  }

  async remove(companyId: number, id: number) {
    const rows = await this.em.execute<Row[]>('delete from campaigns where id = ? and company_id = ? returning id', [id, companyId]);
    return rows.length > 0;
  }

  pendingOnContactList(companyId: number, contactListId: number) {
    return this.select(
      `company_id = ? and contact_list_id = ? and materialized_at is null and status in (${marks(NOT_STARTED_OR_RUNNING.length)})`,
      [companyId, contactListId, ...NOT_STARTED_OR_RUNNING],
      'order by id',
    );
  }
}

// --- recipients --------------------------------------------------------------------------------

/** The columns a recipient's `update` writes, in the order of `recipientValues`. */
const RECIPIENT_FIELDS = [
  'connection_id',
  'number',
  'name',
  'contact_id',
  'list_item_id',
  'variables',
  'variant',
  'body',
  'confirmation_body',
  'media_path',
  'media_name',
  'media_content_type',
  'media_size',
  'stage',
  'state',
  'reason',
  'due_at',
  'claimed_until',
  'attempts',
  'message_id',
  'sent_at',
  'delivered_at',
  'read_at',
  'confirmation_requested_at',
  'confirmed_at',
  'awaiting_until',
  'created_at',
  'updated_at',
] as const;

function recipientValues(r: NewRecipient): unknown[] {
  return [
    r.connectionId,
    r.number,
    r.name,
    r.contactId,
    r.listItemId,
    JSON.stringify(r.variables),
    r.variant,
    r.body,
    r.confirmationBody,
    ...mediaValues(r.media),
    r.stage,
    r.state,
    r.reason,
    r.dueAt,
    r.claimedUntil,
    r.attempts,
    r.messageId,
    r.sentAt,
    r.deliveredAt,
    r.readAt,
    r.confirmationRequestedAt,
    r.confirmedAt,
    r.awaitingUntil,
    r.createdAt,
    r.updatedAt,
  ];
}

/** Delivery reports per statement at most (five parameters each). */
const PROGRESS_CHUNK = 500;

const RECIPIENT_COLUMNS = `id, company_id, campaign_id, ${RECIPIENT_FIELDS.join(', ')}`;

/** How `addMany` reads one recipient out of the JSON batch. */
const RECORD_TYPES = `company_id int, campaign_id int, connection_id int, number text, name text, contact_id int, list_item_id int,
  variables jsonb, variant int, body text, confirmation_body text, media_path text, media_name text, media_content_type text, media_size int, stage text,
  state text, reason text, due_at timestamptz, claimed_until timestamptz, attempts int, message_id text, sent_at timestamptz,
  delivered_at timestamptz, read_at timestamptz, confirmation_requested_at timestamptz, confirmed_at timestamptz,
  awaiting_until timestamptz, created_at timestamptz, updated_at timestamptz`;

function recipientRecord(r: NewRecipient): Record<string, unknown> {
  return {
    company_id: r.companyId,
    campaign_id: r.campaignId,
    connection_id: r.connectionId,
    number: r.number,
    name: r.name,
    contact_id: r.contactId,
    list_item_id: r.listItemId,
    variables: r.variables,
    variant: r.variant,
    body: r.body,
    confirmation_body: r.confirmationBody,
    media_path: r.media?.path ?? null,
    media_name: r.media?.name ?? null,
    media_content_type: r.media?.contentType ?? null,
    media_size: r.media?.size ?? null,
    stage: r.stage,
    state: r.state,
    reason: r.reason,
    due_at: iso(r.dueAt),
    claimed_until: iso(r.claimedUntil),
    attempts: r.attempts,
    message_id: r.messageId,
    sent_at: iso(r.sentAt),
    delivered_at: iso(r.deliveredAt),
    read_at: iso(r.readAt),
    confirmation_requested_at: iso(r.confirmationRequestedAt),
    confirmed_at: iso(r.confirmedAt),
    awaiting_until: iso(r.awaitingUntil),
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}

function toRecipient(r: Row): CampaignRecipient {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    campaignId: Number(r.campaign_id),
    connectionId: Number(r.connection_id),
    number: String(r.number),
    name: String(r.name),
    contactId: maybeNumber(r.contact_id),
    listItemId: maybeNumber(r.list_item_id),
    variables: json<Record<string, string>>(r.variables) ?? {},
    variant: Number(r.variant),
    body: String(r.body),
    confirmationBody: (r.confirmation_body as string | null) ?? null,
    media: mediaOf(r),
    stage: r.stage as CampaignRecipient['stage'],
    state: r.state as RecipientState,
    reason: (r.reason as string | null) ?? null,
    dueAt: time(r.due_at),
    claimedUntil: maybeTime(r.claimed_until),
    attempts: Number(r.attempts),
    messageId: (r.message_id as string | null) ?? null,
    sentAt: maybeTime(r.sent_at),
    deliveredAt: maybeTime(r.delivered_at),
    readAt: maybeTime(r.read_at),
    confirmationRequestedAt: maybeTime(r.confirmation_requested_at),
    confirmedAt: maybeTime(r.confirmed_at),
    awaitingUntil: maybeTime(r.awaiting_until),
    createdAt: time(r.created_at),
    updatedAt: time(r.updated_at),
  };
}

/** `campaign_recipients`: inserted in batches, claimed one at a time with `FOR UPDATE SKIP LOCKED`. */
export class MikroOrmCampaignRecipients extends MikroOrmRepository implements CampaignRecipients {
  private async select(where: string, params: unknown[], tail = ''): Promise<CampaignRecipient[]> {
    const rows = await this.em.execute<Row[]>(`select ${RECIPIENT_COLUMNS} from campaign_recipients where ${where} ${tail}`, params);
    return rows.map(toRecipient);
  }

  private async scalar(sql: string, params: unknown[]): Promise<unknown> {
    const [row] = await this.em.execute<Array<{ v: unknown }>>(sql, params);
    return row?.v ?? null;
  }

  /** One multi-row insert per chunk: the whole batch travels as one JSON parameter. */
  async addMany(recipients: readonly NewRecipient[]) {
    let added = 0;
    for (let start = 0; start < recipients.length; start += INSERT_CHUNK) {
      const chunk = recipients.slice(start, start + INSERT_CHUNK).map(recipientRecord);
      added += Number(
        await this.scalar(
          `with added as (
           insert into campaign_recipients (company_id, campaign_id, ${RECIPIENT_FIELDS.join(', ')})
           select company_id, campaign_id, ${RECIPIENT_FIELDS.join(', ')} from jsonb_to_recordset(cast(? as jsonb)) as r(${RECORD_TYPES})
           on conflict (campaign_id, number) do nothing
           returning 1)
         select count(*) as v from added`,
          [JSON.stringify(chunk)],
        ),
      );
    }
    return added;
  }

  async findById(companyId: number, id: number) {
    return (await this.select('id = ? and company_id = ?', [id, companyId]))[0] ?? null;
  }

  async findByMessageId(messageId: string) {
    return (await this.select('message_id = ?', [messageId], 'order by id limit 1'))[0] ?? null;
  }

  findByNumber(companyId: number, connectionId: number, number: string) {
    return this.select('company_id = ? and connection_id = ? and number = ?', [companyId, connectionId, number], 'order by campaign_id desc, id desc');
  }

  /**
   * One statement: the first due recipient of a running campaign is locked (rows other dispatchers
   * hold are skipped, not waited for) and its claim written.
   */
  async claimNext(connectionId: number, now: Date, claimedUntil: Date) {
    const rows = await this.em.execute<Row[]>(
      `update campaign_recipients set claimed_until = ? where id = (
         select r.id from campaign_recipients r join campaigns c on c.id = r.campaign_id
         where r.connection_id = ? and r.state = 'pending' and r.due_at <= ? and (r.claimed_until is null or r.claimed_until <= ?)
           and c.status = 'EM_ANDAMENTO'
         order by r.campaign_id, r.id
         limit 1
         for update of r skip locked)
       returning ${RECIPIENT_COLUMNS}`,
      [claimedUntil, connectionId, now, now],
    );
    return rows[0] ? toRecipient(rows[0]) : null;
  }

  async update(recipient: CampaignRecipient) {
    await this.em.execute(
      `update campaign_recipients set ${RECIPIENT_FIELDS.map((f) => (f === 'variables' ? 'variables = cast(? as jsonb)' : `${f} = ?`)).join(', ')}
       where id = ? and company_id = ?`,
      [...recipientValues(recipient), recipient.id, recipient.companyId],
    );
  }

  /**
   * One conditional update for every change of the batch: the state only moves forward, whatever
   * order concurrent reports run in. A row takes one change per statement, so a message's second
   * change goes in a second round, after the first.
   */
  async advanceByMessages(changes: readonly RecipientProgress[]) {
    const results: Array<CampaignRecipient | null> = changes.map(() => null);
    for (const round of changeRounds(changes, (c) => (typeof c.messageId === 'string' ? c.messageId : null))) {
      for (const chunk of slices(round, PROGRESS_CHUNK)) {
        const rows = await this.em.execute<Array<Row & { ord: number }>>(
          `update campaign_recipients r set state = v.state,
             reason = case when v.state = 'failed' then v.reason else r.reason end,
             awaiting_until = case when v.state = 'failed' then null else r.awaiting_until end,
             delivered_at = case when v.state = 'failed' then r.delivered_at else coalesce(r.delivered_at, v.at) end,
             read_at = case when v.state = 'read' then v.at else r.read_at end,
             updated_at = v.at
           from (values ${chunk.map(() => '(cast(? as int), cast(? as varchar), cast(? as text), cast(? as text), cast(? as timestamptz))').join(', ')})
             as v(ord, message_id, state, reason, at)
           where r.message_id = v.message_id
             and r.state = any(case v.state when 'delivered' then array['sent'] when 'read' then array['sent', 'delivered'] else array['sent', 'delivered', 'read'] end)
           returning v.ord, ${RECIPIENT_COLUMNS.split(', ')
             .map((c) => `r.${c}`)
             .join(', ')}`,
          chunk.flatMap((i) => {
            const c = changes[i]!;
            return [i, c.messageId, c.state, c.state === 'failed' ? (c.reason ?? null) : null, c.at];
          }),
        );
        for (const row of rows) results[Number(row.ord)] = toRecipient(row);
      }
    }
    return results;
  }

  async release(id: number, dueAt?: Date) {
    await this.em.execute('update campaign_recipients set claimed_until = null, due_at = coalesce(?, due_at) where id = ?', [dueAt ?? null, id]);
  }

  /** Counted by the database, grouped by state and reason. */
  async progress(companyId: number, campaignId: number): Promise<CampaignProgress> {
    const rows = await this.em.execute<
      Array<{ state: RecipientState; reason: string | null; n: unknown; awaiting: unknown; requested: unknown; confirmed: unknown }>
    >(
      `select state, reason, count(*) as n,
         count(*) filter (where ${AWAITING}) as awaiting,
         count(*) filter (where confirmation_requested_at is not null) as requested,
         count(*) filter (where confirmed_at is not null) as confirmed
       from campaign_recipients where company_id = ? and campaign_id = ? group by state, reason`,
      [companyId, campaignId],
    );
    const counts: Record<RecipientState, number> = { pending: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0 };
    const failedByReason: Record<string, number> = {};
    const skippedByReason: Record<string, number> = {};
    let total = 0,
      awaitingConfirmation = 0,
      confirmationRequested = 0,
      confirmed = 0;
    for (const row of rows) {
      const n = Number(row.n);
      total += n;
      counts[row.state] += n;
      const reason = row.reason ?? 'unknown';
      if (row.state === 'failed') failedByReason[reason] = (failedByReason[reason] ?? 0) + n;
      if (row.state === 'skipped') skippedByReason[reason] = (skippedByReason[reason] ?? 0) + n;
      awaitingConfirmation += Number(row.awaiting);
      confirmationRequested += Number(row.requested);
      confirmed += Number(row.confirmed);
    }
    return { total, ...counts, awaitingConfirmation, confirmationRequested, confirmed, failedByReason, skippedByReason };
  }

  async hasPending(campaignId: number) {
    return Boolean(await this.scalar(`select exists (select 1 from campaign_recipients where campaign_id = ? and state = 'pending') as v`, [campaignId]));
  }

  /** A live claim postpones the recipient to the claim's end. */
  async nextDue(connectionId: number) {
    return maybeTime(
      await this.scalar(
        `select min(greatest(r.due_at, r.claimed_until)) as v from campaign_recipients r join campaigns c on c.id = r.campaign_id
       where r.connection_id = ? and r.state = 'pending' and c.status = 'EM_ANDAMENTO'`,
        [connectionId],
      ),
    );
  }

  async countAwaiting(campaignId: number, now: Date) {
    return Number(
      await this.scalar(`select count(*) as v from campaign_recipients where campaign_id = ? and ${AWAITING} and awaiting_until > ?`, [campaignId, now]),
    );
  }

  async nextAwaitingExpiry(campaignId: number, now: Date) {
    return maybeTime(
      await this.scalar(`select min(awaiting_until) as v from campaign_recipients where campaign_id = ? and ${AWAITING} and awaiting_until > ?`, [
        campaignId,
        now,
      ]),
    );
  }

  async expireAwaiting(campaignId: number, now: Date) {
    const rows = await this.em.execute<Row[]>(
      `update campaign_recipients set state = 'skipped', reason = 'no-confirmation', awaiting_until = null, updated_at = ?
       where campaign_id = ? and ${AWAITING} and (awaiting_until is null or awaiting_until <= ?) returning id`,
      [now, campaignId, now],
    );
    return rows.length;
  }

  async list(companyId: number, campaignId: number, filter: { state?: RecipientState; offset: number; limit: number }) {
    const where = `company_id = ? and campaign_id = ?${filter.state ? ' and state = ?' : ''}`;
    const params = filter.state ? [companyId, campaignId, filter.state] : [companyId, campaignId];
    const count = Number(await this.scalar(`select count(*) as v from campaign_recipients where ${where}`, params));
    const rows = await this.select(where, [...params, filter.limit, filter.offset], 'order by id limit ? offset ?');
    return { rows, count };
  }
}

// --- pacing ------------------------------------------------------------------------------------

/** Sends older than this are pruned: the daily cap looks back 24 hours. */
const SEND_HISTORY_MS = 25 * 3_600_000;

/**
 * `campaign_pacing` (one row per connection, its company taken from `connections`) and
 * `campaign_sends`. A connection that no longer exists keeps no state.
 */
export class MikroOrmCampaignPacing extends MikroOrmRepository implements CampaignPacing {
  async get(connectionId: number): Promise<ConnectionPacingState> {
    const [row] = await this.em.execute<Row[]>(
      // Locked inside a transaction: a dispatcher that re-checks the gap before a send holds it until it recorded the send.
      'select connection_id, last_sent_at, next_gap_ms, streak, consecutive_errors, backoff_until from campaign_pacing where connection_id = ? for update',
      [connectionId],
    );
    if (!row) return initialPacingState(connectionId);
    return {
      connectionId: Number(row.connection_id),
      lastSentAt: maybeTime(row.last_sent_at),
      nextGapMs: Number(row.next_gap_ms),
      streak: Number(row.streak),
      consecutiveErrors: Number(row.consecutive_errors),
      backoffUntil: maybeTime(row.backoff_until),
    };
  }

  async save(state: ConnectionPacingState) {
    await this.em.execute(
      `insert into campaign_pacing (connection_id, company_id, last_sent_at, next_gap_ms, streak, consecutive_errors, backoff_until)
       select id, company_id, ?, ?, ?, ?, ? from connections where id = ?
       on conflict (connection_id) do update set last_sent_at = excluded.last_sent_at, next_gap_ms = excluded.next_gap_ms,
         streak = excluded.streak, consecutive_errors = excluded.consecutive_errors, backoff_until = excluded.backoff_until`,
      [state.lastSentAt, state.nextGapMs, state.streak, state.consecutiveErrors, state.backoffUntil, state.connectionId],
    );
  }

  async sendsSince(connectionId: number, since: Date) {
    const rows = await this.em.execute<Array<{ sent_at: Time }>>(
      'select sent_at from campaign_sends where connection_id = ? and sent_at >= ? order by sent_at',
      [connectionId, since],
    );
    return rows.map((r) => time(r.sent_at));
  }

  /** Records the send and drops the connection's sends no cap looks at any more. */
  async recordSend(connectionId: number, at: Date) {
    await this.em.execute(
      `with pruned as (delete from campaign_sends where connection_id = ? and sent_at < ?)
       insert into campaign_sends (connection_id, sent_at) select id, ? from connections where id = ?`,
      [connectionId, new Date(at.getTime() - SEND_HISTORY_MS), at, connectionId],
    );
  }

  async setNextRun(companyId: number, connectionId: number, at: Date | null, unlessWokenAfter?: Date) {
    await this.em.execute(
      `insert into campaign_pacing (connection_id, company_id, next_run_at)
       select id, company_id, ? from connections where id = ? and company_id = ?
       on conflict (connection_id) do update set next_run_at = excluded.next_run_at
       where ?::timestamptz is null or campaign_pacing.next_run_at is null or campaign_pacing.next_run_at <= ?`,
      [at, connectionId, companyId, unlessWokenAfter ?? null, unlessWokenAfter ?? null],
    );
  }

  async dueConnections(now: Date, limit: number) {
    const rows = await this.em.execute<Array<{ company_id: unknown; connection_id: unknown }>>(
      'select company_id, connection_id from campaign_pacing where next_run_at <= ? order by next_run_at, connection_id limit ?',
      [now, limit],
    );
    return rows.map((r) => ({ companyId: Number(r.company_id), connectionId: Number(r.connection_id) }));
  }

  async wakeCompany(companyId: number, at: Date) {
    await this.em.execute('update campaign_pacing set next_run_at = ? where company_id = ? and next_run_at is not null', [at, companyId]);
  }
}

// --- suppressions, settings, audience ----------------------------------------------------------

/** A list of values as one parameter, for `in (select jsonb_array_elements_text(...))` of any length. */
const IN_JSON = 'select jsonb_array_elements_text(cast(? as jsonb))';

/** `campaign_suppressions`: one row per (company, number); the first entry stays. */
export class MikroOrmCampaignSuppressions extends MikroOrmRepository implements Suppressions {
  async suppressed(companyId: number, numbers: readonly string[]) {
    if (!numbers.length) return new Set<string>();
    const rows = await this.em.execute<Array<{ number: string }>>(`select number from campaign_suppressions where company_id = ? and number in (${IN_JSON})`, [
      companyId,
      JSON.stringify(numbers),
    ]);
    return new Set(rows.map((r) => r.number));
  }

  async add(entry: { companyId: number; number: string; reason: string; campaignId: number | null; createdAt: Date }) {
    await this.em.execute(
      `insert into campaign_suppressions (company_id, number, reason, campaign_id, created_at) values (?, ?, ?, ?, ?)
       on conflict (company_id, number) do nothing`,
      [entry.companyId, entry.number, entry.reason, entry.campaignId, entry.createdAt],
    );
  }
}

function toStoredSetting(r: Row): StoredCampaignSetting {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    key: String(r.key),
    value: String(r.value),
    createdAt: time(r.created_at),
    updatedAt: time(r.updated_at),
  };
}

/** `campaign_settings`: the company's key/value rows (the time zone comes from the company settings). */
export class MikroOrmCampaignSettingsRows extends MikroOrmRepository implements Pick<CampaignSettingsStore, 'rows' | 'save'> {
  async rows(companyId: number): Promise<CampaignSettingRow[]> {
    const rows = await this.em.execute<Row[]>('select key, value from campaign_settings where company_id = ? order by id', [companyId]);
    return rows.map((r) => ({ key: String(r.key), value: String(r.value) }));
  }

  /** One upsert for every row (the last of a repeated key wins), then every row of the company. */
  async save(companyId: number, rows: readonly CampaignSettingRow[]): Promise<StoredCampaignSetting[]> {
    const latest = [...new Map(rows.map((r) => [r.key, r.value])).entries()].map(([key, value]) => ({ key, value }));
    if (latest.length) {
      const now = new Date();
      await this.em.execute(
        `insert into campaign_settings (company_id, key, value, created_at, updated_at)
         select ?, key, value, ?, ? from jsonb_to_recordset(cast(? as jsonb)) as r(key text, value text)
         on conflict (company_id, key) do update set value = excluded.value, updated_at = excluded.updated_at`,
        [companyId, now, now, JSON.stringify(latest)],
      );
    }
    const stored = await this.em.execute<Row[]>(
      'select id, company_id, key, value, created_at, updated_at from campaign_settings where company_id = ? order by id',
      [companyId],
    );
    return stored.map(toStoredSetting);
  }
}

const CONTACT_COLUMNS = 'c.id, c.name, c.number, c.email, c.blocked, c.is_group';

function toAudienceContact(r: Row): AudienceContact {
  return {
    id: Number(r.id),
    name: String(r.name),
    number: String(r.number),
    email: (r.email as string | null) ?? null,
    blocked: Boolean(r.blocked),
    isGroup: Boolean(r.is_group),
  };
}

/** Where recipients come from: contact-list items, tagged contacts, contacts by canonical number. One query each. */
export class MikroOrmCampaignAudience extends MikroOrmRepository implements CampaignAudience {
  async listItems(companyId: number, contactListId: number): Promise<AudienceListItem[]> {
    const rows = await this.em.execute<Row[]>(
      `select id, name, canonical_number, email, validity, variables from contact_list_items
       where company_id = ? and contact_list_id = ? order by id`,
      [companyId, contactListId],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      name: String(r.name),
      number: String(r.canonical_number),
      email: String(r.email ?? ''),
      validity: r.validity as AudienceListItem['validity'],
      variables: json<Record<string, string>>(r.variables) ?? {},
    }));
  }

  async contactsWithTag(companyId: number, tagId: number) {
    const rows = await this.em.execute<Row[]>(
      `select ${CONTACT_COLUMNS} from contact_tags l join tags g on g.id = l.tag_id join contacts c on c.id = l.contact_id
       where g.id = ? and g.company_id = ? and c.company_id = ? order by c.id`,
      [tagId, companyId, companyId],
    );
    return rows.map(toAudienceContact);
  }

  /** Through the contacts' phone identifiers, whose value is the canonical number. */
  async contactsByNumbers(companyId: number, canonicalNumbers: readonly string[]) {
    if (!canonicalNumbers.length) return [];
    const rows = await this.em.execute<Row[]>(
      `select ${CONTACT_COLUMNS} from contacts c where c.company_id = ? and c.id in (
         select i.contact_id from contact_identifiers i where i.company_id = ? and i.kind = 'phone' and i.value in (${IN_JSON}))
       order by c.id`,
      [companyId, companyId, JSON.stringify(canonicalNumbers)],
    );
    return rows.map(toAudienceContact);
  }
}

/** Every campaign port this package implements, on one database. */
export const campaignsRepositories = (orm: MikroORM) => ({
  campaigns: new MikroOrmCampaigns(orm),
  campaignRecipients: new MikroOrmCampaignRecipients(orm),
  campaignPacing: new MikroOrmCampaignPacing(orm),
  campaignSuppressions: new MikroOrmCampaignSuppressions(orm),
  campaignSettingsRows: new MikroOrmCampaignSettingsRows(orm),
  campaignAudience: new MikroOrmCampaignAudience(orm),
});
