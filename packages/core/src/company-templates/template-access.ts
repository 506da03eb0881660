import { isAdmin, type Actor } from '../shared/actor.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import type { TemplateReaders } from './company-template-events.js';
import type { CompanyTemplate } from './company-template.js';
import type { CompanyTemplates } from './ports.js';

/** Every operator sees a global template; its owner and the admins a personal one. */
export function maySeeTemplate(actor: Actor, t: CompanyTemplate): boolean {
  return t.global || isAdmin(actor) || t.userId === actor.userId;
}

/** Admins change any template; a user only their own personal ones (403 `ERR_NO_PERMISSION`). */
export function assertMayChangeTemplate(actor: Actor, t: CompanyTemplate): void {
  if (!isAdmin(actor) && (t.global || t.userId !== actor.userId)) throw new ForbiddenError('ERR_NO_PERMISSION');
}

/** The template of the caller's company that the caller may see: 404 `ERR_NO_COMPANY_TEMPLATE_FOUND` otherwise (another company's, another user's personal one). */
export async function visibleTemplate(templates: CompanyTemplates, actor: Actor, id: number): Promise<CompanyTemplate> {
  const t = await templates.findById(actor.companyId, id);
  if (!t || !maySeeTemplate(actor, t)) throw new NotFoundError('ERR_NO_COMPANY_TEMPLATE_FOUND');
  return t;
}

/** Who receives the template's frames: the same rule as `maySeeTemplate`. */
export function readersOf(t: CompanyTemplate): TemplateReaders {
  return t.global ? { kind: 'company' } : { kind: 'owner', userId: t.userId };
}
