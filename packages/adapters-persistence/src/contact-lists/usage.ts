import type { ContactListUsage, ListReader } from '@servicedesk/core/contact-lists/ports';
import { MikroOrmRepository } from '../shared/context.js';

/**
 * The campaigns that will still read a list: not yet materialised (their recipients are taken
 * from the list when they start) and neither paused nor ended — `INATIVA`, `PROGRAMADA`, or
 * `EM_ANDAMENTO` before its start wrote the recipients. Reads the campaigns' table (m0015).
 */
export class MikroOrmContactListUsage extends MikroOrmRepository implements ContactListUsage {
  async campaignsReading(companyId: number, contactListId: number): Promise<ListReader[]> {
    const rows = await this.em.execute<Array<{ id: number; name: string }>>(
      `select id, name from campaigns
       where company_id = ? and contact_list_id = ? and materialized_at is null and status in ('INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO')
       order by id`,
      [companyId, contactListId],
    );
    return rows.map((r) => ({ id: Number(r.id), name: r.name }));
  }
}
