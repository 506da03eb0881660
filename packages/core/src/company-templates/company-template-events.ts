import type { RealtimeEventOf } from '../realtime/ports.js';
import type { CompanyTemplateView } from './company-template.js';

/**
 * Who receives a template's frame: every operator of the company (a global template), or its
 * owner and the admins (a personal one; the admins alone once its owner is deleted).
 */
export type TemplateReaders = { readonly kind: 'company' } | { readonly kind: 'owner'; readonly userId: number | null };

/**
 * `company-<id>-companyTemplate`: a template was created or changed (`record`, as `GET
 * /company-templates/:id` answers it) or removed (`id`). `readers` stays on the server (frames
 * carry `data` only).
 */
export type CompanyTemplateEvent = RealtimeEventOf<
  'companyTemplate',
  | { readonly action: 'create'; readonly record: CompanyTemplateView }
  | { readonly action: 'update'; readonly record: CompanyTemplateView }
  | { readonly action: 'delete'; readonly id: number }
> & { readonly readers: TemplateReaders };
