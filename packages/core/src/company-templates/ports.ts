import type { Page, PageRequest } from '../shared/paging.js';
import type { CompanyTemplate, NewCompanyTemplate } from './company-template.js';

export interface TemplateQuery {
  readonly companyId: number;
  /** Only the global templates and this user's; absent: every template of the company (admins). */
  readonly readerId?: number;
  /** In the shortcut or the message, case- and accent-folded. */
  readonly search?: string;
  readonly page: PageRequest;
}

/**
 * A company's templates. Every method is scoped by `companyId`: another company's template is
 * absent. Two templates of a company never share a shortcut: `add` and `update` throw
 * ConflictError `ERR_TEMPLATE_SHORTCUT_IN_USE`.
 */
export interface CompanyTemplates {
  findById(companyId: number, id: number): Promise<CompanyTemplate | null>;
  add(template: NewCompanyTemplate): Promise<CompanyTemplate>;
  /** Saves every field but the company and `createdAt`. */
  update(template: CompanyTemplate): Promise<void>;
  /**
   * Sets `updatedAt` only; false when the template is absent. Inside a transaction its row then
   * stays locked until it ends, so changes to one template take turns.
   */
  touch(companyId: number, id: number, at: Date): Promise<boolean>;
  /** False when it was not there. */
  remove(companyId: number, id: number): Promise<boolean>;
  /** A page by shortcut (code-point order: shortcuts are folded), then id. */
  page(query: TemplateQuery): Promise<Page<CompanyTemplate>>;
}
