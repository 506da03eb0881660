import { foldForSearch, type Campaign, type Campaigns, type CampaignStatus, type NewCampaign } from '@servicedesk/core';
import { likeTerm, MikroOrmRepository } from '../shared/context.js';
import { foldSql } from '../shared/search.js';
import { marks } from '../shared/sql.js';
import { maybeNumber, maybeTime, mediaOf, mediaValues, time, type Row } from './campaign-rows.js';

/** The statuses in which a campaign not yet materialised will still read its contact list. */
const NOT_STARTED_OR_RUNNING: readonly CampaignStatus[] = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO'];

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
