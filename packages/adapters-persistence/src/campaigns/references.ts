import type { CampaignReferenceKind, CampaignReferences } from '@servicedesk/core';
import { MikroOrmRepository } from '../shared/context.js';
import { marks } from '../shared/sql.js';

const TABLES: Record<CampaignReferenceKind, string> = {
  contactList: 'contact_lists',
  tag: 'tags',
  connection: 'connections',
  user: 'users',
  queue: 'queues',
};

/** The names of what campaigns point at: one query per kind for a whole page of campaigns. */
export class MikroOrmCampaignReferences extends MikroOrmRepository implements CampaignReferences {
  async names(companyId: number, kind: CampaignReferenceKind, ids: readonly number[]): Promise<Map<number, string>> {
    const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647);
    if (!wanted.length) return new Map();
    const rows = await this.em.execute<Array<{ id: number; name: string }>>(
      `select id, name from ${TABLES[kind]} where company_id = ? and id in (${marks(wanted.length)})`,
      [companyId, ...wanted],
    );
    return new Map(rows.map((r) => [Number(r.id), String(r.name)]));
  }
}
