import { raw, UniqueConstraintViolationException, type MikroORM } from '@mikro-orm/core';
import { ConflictError, type Page } from '@servicedesk/core';
import type { CompanyTemplate, NewCompanyTemplate } from '@servicedesk/core/company-templates/company-template';
import type { CompanyTemplates, TemplateQuery } from '@servicedesk/core/company-templates/ports';
import { MikroOrmRepository } from '../shared/context.js';
import { searchWhere } from '../shared/search.js';
import { CompanyTemplateSchema } from './schema.js';

const READ = { disableIdentityMap: true } as const;
/** Shortcuts are folded already: code-point order, whatever the database's collation. Built per query (a raw fragment is used once). */
const byShortcut = () => [{ [raw((alias: string) => `${alias}.shortcut collate "C"`)]: 'asc' as const }, { id: 'asc' as const }];

/** The unique constraint on (company_id, shortcut) decides two writers taking one shortcut. */
async function shortcutUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException && err.message.includes('company_templates_company_shortcut_unique')) {
      throw new ConflictError('ERR_TEMPLATE_SHORTCUT_IN_USE');
    }
    throw err;
  }
}

export class MikroOrmCompanyTemplates extends MikroOrmRepository implements CompanyTemplates {
  async findById(companyId: number, id: number) {
    return this.em.findOne(CompanyTemplateSchema, { id, companyId }, READ);
  }
  async add(template: NewCompanyTemplate): Promise<CompanyTemplate> {
    const id = (await shortcutUnique(() => this.em.insert(CompanyTemplateSchema, { ...template } as CompanyTemplate))) as number;
    return { ...template, id };
  }
  async update(template: CompanyTemplate) {
    const { id, companyId, createdAt, ...fields } = template;
    void createdAt;
    await shortcutUnique(() => this.em.nativeUpdate(CompanyTemplateSchema, { id, companyId }, fields));
  }
  async touch(companyId: number, id: number, at: Date) {
    return (await this.em.nativeUpdate(CompanyTemplateSchema, { id, companyId }, { updatedAt: at })) > 0;
  }
  async remove(companyId: number, id: number) {
    return (await this.em.nativeDelete(CompanyTemplateSchema, { id, companyId })) > 0;
  }
  async page(q: TemplateQuery): Promise<Page<CompanyTemplate>> {
    const where = {
      companyId: q.companyId,
      ...(q.readerId !== undefined ? { $or: [{ global: true }, { userId: q.readerId }] } : {}),
      ...searchWhere(['shortcut', 'message'], q.search),
    };
    const [rows, count] = await this.em.findAndCount(CompanyTemplateSchema, where, {
      ...READ,
      orderBy: byShortcut(),
      offset: q.page.offset,
      limit: q.page.limit,
    });
    return { rows, count };
  }
}

/** The company templates' table on one database. */
export const companyTemplatesRepositories = (orm: MikroORM) => ({ companyTemplates: new MikroOrmCompanyTemplates(orm) });
