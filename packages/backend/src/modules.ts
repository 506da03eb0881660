import { BACKEND_MIGRATIONS, BACKEND_SCHEMAS } from '@servicedesk/adapters-persistence';
import type { EntitySchema } from '@mikro-orm/core';
import type { Application } from '@servicedesk/core';
import type { Feature, Migration } from './modules/feature.js';
import { companyApi } from './modules/company-api.js';
import { contacts } from './modules/contacts.js';
import { contactLists } from './modules/contact-lists.js';
import { identity } from './modules/identity.js';
import { messaging } from './modules/messaging.js';
import { platform } from './modules/platform.js';
import { queues } from './modules/queues.js';
import { campaigns } from './modules/campaigns.js';
import { announcements } from './modules/announcements.js';
import { chats } from './modules/chats.js';
import { schedules } from './modules/schedules.js';
import { settings } from './modules/settings.js';
import { tags } from './modules/tags.js';
import { tenancy } from './modules/tenancy.js';
import { transcription } from './modules/transcription.js';
import { proxies } from './modules/proxies.js';
import { dashboards } from './modules/dashboards.js';
import { prompts } from './modules/prompts.js';
import { files } from './modules/files.js';
import { billing } from './modules/billing.js';
import { flows } from './modules/flows.js';
import { catalog } from './modules/catalog.js';
import { orders } from './modules/orders.js';
import { objstore } from './modules/objstore.js';
import { companyTemplates } from './modules/company-templates.js';
import { contactSellers } from './modules/contact-sellers.js';
import { bizchat } from './modules/bizchat.js';

/**
 * Every feature of the backend, listed once. Adding a route group is its folders in each package
 * plus one line here (see docs/adding-a-feature.md). Routes are mounted in this order.
 */
export const FEATURES = [
  platform,
  identity,
  tenancy,
  settings,
  companyApi,
  messaging,
  tags,
  contacts,
  queues,
  contactLists,
  campaigns,
  chats,
  announcements,
  schedules,
  transcription,
  proxies,
  prompts,
  files,
  billing,
  flows,
  catalog,
  orders,
  objstore,
  companyTemplates,
  contactSellers,
  bizchat,
  dashboards,
] as const;

type ApiOf<F> = F extends Feature<any, infer A> ? A : never;
type Merge<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** The application the backend serves: every feature's namespaces. */
export type BackendApplication = Application & Merge<ApiOf<(typeof FEATURES)[number]>>;

/** The tables of every feature: the released history first, then what features add, migrations by name. */
export function databaseSchema(features: readonly Feature<any, any>[] = FEATURES): { entities: EntitySchema<any>[]; migrations: Migration[] } {
  const migrations = [...BACKEND_MIGRATIONS, ...features.flatMap((f) => f.migrations ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const names = new Set(migrations.map((m) => m.name));
  if (names.size !== migrations.length) throw new Error('two migrations share a name');
  return { entities: [...BACKEND_SCHEMAS, ...features.flatMap((f) => f.entities ?? [])], migrations };
}
