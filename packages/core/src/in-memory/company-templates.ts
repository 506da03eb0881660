import type { CompanyTemplate, NewCompanyTemplate } from '../company-templates/company-template.js';
import type { CompanyTemplates, TemplateQuery } from '../company-templates/ports.js';
import { ConflictError } from '../shared/errors.js';
import { foldForSearch } from '../shared/text.js';
import { InMemoryTable, slice } from './table.js';

const byShortcut = (a: CompanyTemplate, b: CompanyTemplate) => (a.shortcut < b.shortcut ? -1 : a.shortcut > b.shortcut ? 1 : a.id - b.id);

/** Company templates; a shortcut appears once per company, as the unique constraint keeps it. */
export class InMemoryCompanyTemplates implements CompanyTemplates {
  readonly table = new InMemoryTable<CompanyTemplate>();

  private taken(companyId: number, shortcut: string, exceptId?: number) {
    return this.table.find((t) => t.companyId === companyId && t.shortcut === shortcut && t.id !== exceptId) !== null;
  }

  async findById(companyId: number, id: number) {
    const t = this.table.get(id);
    return t?.companyId === companyId ? t : null;
  }
  async add(template: NewCompanyTemplate) {
    if (this.taken(template.companyId, template.shortcut)) throw new ConflictError('ERR_TEMPLATE_SHORTCUT_IN_USE');
    return this.table.insert(template);
  }
  async update(template: CompanyTemplate) {
    const stored = await this.findById(template.companyId, template.id);
    if (!stored) return;
    if (this.taken(template.companyId, template.shortcut, template.id)) throw new ConflictError('ERR_TEMPLATE_SHORTCUT_IN_USE');
    this.table.replace({ ...template, createdAt: stored.createdAt });
  }
  async touch(companyId: number, id: number, at: Date) {
    const stored = await this.findById(companyId, id);
    if (!stored) return false;
    this.table.replace({ ...stored, updatedAt: at });
    return true;
  }
  async remove(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return false;
    this.table.delete(id);
    return true;
  }
  async page(q: TemplateQuery) {
    const term = q.search?.trim() ? foldForSearch(q.search) : '';
    const rows = this.table
      .filter(
        (t) =>
          t.companyId === q.companyId &&
          (q.readerId === undefined || t.global || t.userId === q.readerId) &&
          (!term || foldForSearch(t.shortcut).includes(term) || foldForSearch(t.message).includes(term)),
      )
      .sort(byShortcut);
    return slice(rows, q.page);
  }
}
