import type { MikroORM } from '@mikro-orm/core';
import type { BizchatTemplate, NewBizchatTemplate } from '@servicedesk/core/bizchat/bizchat-template';
import type { BizchatNumbers, BizchatTemplates } from '@servicedesk/core/bizchat/ports';
import type { ServiceWindows } from '@servicedesk/core/bizchat/service-window';
import type { Connection } from '@servicedesk/core';
import { ConnectionSchema } from '../messaging/schema.js';
import { MikroOrmRepository } from '../shared/context.js';
import { BizchatTemplateSchema } from './schema.js';

const READ = { disableIdentityMap: true } as const;
/** Names and languages compare in code-point order, whatever the database's collation. */
const byNameLanguage = (a: BizchatTemplate, b: BizchatTemplate) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.language < b.language ? -1 : a.language > b.language ? 1 : a.id - b.id;

export class MikroOrmBizchatTemplates extends MikroOrmRepository implements BizchatTemplates {
  async list(companyId: number, connectionId: number) {
    return (await this.em.find(BizchatTemplateSchema, { companyId, connectionId }, READ)).sort(byNameLanguage);
  }
  async find(companyId: number, connectionId: number, name: string, language: string) {
    return this.em.findOne(BizchatTemplateSchema, { companyId, connectionId, name, language }, READ);
  }
  async replaceAll(companyId: number, connectionId: number, templates: readonly NewBizchatTemplate[]) {
    await this.em.nativeDelete(BizchatTemplateSchema, { companyId, connectionId });
    if (templates.length)
      await this.em.insertMany(
        BizchatTemplateSchema,
        templates.map((t) => ({ ...t }) as BizchatTemplate),
      );
    return this.list(companyId, connectionId);
  }
  async setStatus(wabaId: string, match: { metaId: string | null; name: string; language: string }, status: string, at: Date) {
    const where = match.metaId ? { wabaId, metaId: match.metaId } : { wabaId, name: match.name, language: match.language };
    return this.em.nativeUpdate(BizchatTemplateSchema, where, { status, syncedAt: at });
  }
}

/** The bizchat connection of a phone-number id, and when a contact last wrote (the newest inbound message). */
export class MikroOrmBizchatNumbers extends MikroOrmRepository implements BizchatNumbers, ServiceWindows {
  async connectionOfPhoneNumber(phoneNumberId: string): Promise<Connection | null> {
    return this.em.findOne(ConnectionSchema, { kind: 'bizchat', externalId: phoneNumberId }, { ...READ, orderBy: { id: 'asc' } });
  }
  async lastInboundAt(companyId: number, connectionId: number, contactId: number): Promise<Date | null> {
    const rows = await this.em.execute<Array<{ last: Date | string | null }>>(
      'select max(created_at) as last from messages where company_id = ? and connection_id = ? and contact_id = ? and from_me = false',
      [companyId, connectionId, contactId],
    );
    const last = rows[0]?.last;
    return last ? new Date(last) : null;
  }
}

/** The bizchat feature's repositories (the provider's template directory is an HTTP adapter). */
export function bizchatRepositories(orm: MikroORM) {
  const numbers = new MikroOrmBizchatNumbers(orm);
  return { bizchatTemplates: new MikroOrmBizchatTemplates(orm), bizchatNumbers: numbers, serviceWindows: numbers };
}
