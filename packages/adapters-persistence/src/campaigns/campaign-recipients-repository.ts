import type { CampaignProgress, CampaignRecipient, CampaignRecipients, NewRecipient, RecipientProgress, RecipientState } from '@servicedesk/core';
import { MikroOrmRepository } from '../shared/context.js';
import { changeRounds, slices } from '../shared/sql.js';
import { json, maybeNumber, maybeTime, mediaOf, mediaValues, time, type Row } from './campaign-rows.js';

/** A timestamp inside a JSON batch (cast back to timestamptz by the statement). */
const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** A confirmation question sent and not yet answered (`isAwaitingConfirmation`). */
const AWAITING = `stage = 'confirmation' and state in ('sent', 'delivered', 'read')`;

/** Rows in one statement of `addMany`: a few statements for a campaign of 10,000. */
const INSERT_CHUNK = 1000;

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
