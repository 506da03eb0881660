import type { CompanyRegistry } from '../cnpj/lookup-cnpj.js';
import type { JobStore } from '../jobs/job-store.js';
import { createAnnouncements } from './announcements.js';
import { createBilling } from './billing.js';
import { createBizchat } from './bizchat.js';
import { createCampaigns } from './campaigns.js';
import { createCatalog } from './catalog.js';
import { createChats } from './chats.js';
import { createCompanyApi } from './company-api.js';
import { createCompanyTemplates } from './company-templates.js';
import { createContactLists } from './contact-lists.js';
import { createContactSellers } from './contact-sellers.js';
import { createContacts } from './contacts.js';
import { createDashboards } from './dashboards.js';
import { createFiles } from './files.js';
import { createFlows } from './flows.js';
import { createIdentity } from './identity.js';
import { createMessaging } from './messaging.js';
import { createObjstore } from './objstore.js';
import { createOrders } from './orders.js';
import { createPrompts } from './prompts.js';
import { createProxies } from './proxies.js';
import { createQueues } from './queues.js';
import { createSchedules } from './schedules.js';
import { createSettings } from './settings.js';
import { createTags } from './tags.js';
import { createTenancy } from './tenancy.js';
import { createTranscription } from './transcription.js';

/** A module whose factory builds one namespace: `{ tags: createTags(p) }`. */
function namespace<N extends string, P, A>(name: N, create: (p: P) => A): (p: P) => { [K in N]: A } {
  return (p) => ({ [name]: create(p) }) as { [K in N]: A };
}

/**
 * Every module of the core, listed once: each builds its namespaces of the application from the
 * ports (messaging builds several: connections, tickets, conversations, outbox). `CorePorts`,
 * `Application` and `createApplication` are derived from this map, so a feature of the core is one
 * entry here (see docs/adding-a-feature.md). Namespaces are built in this order.
 */
export const CORE_MODULES = {
  identity: namespace('identity', createIdentity),
  tenancy: namespace('tenancy', createTenancy),
  settings: namespace('settings', createSettings),
  companyApi: namespace('companyApi', createCompanyApi),
  messaging: createMessaging,
  tags: namespace('tags', createTags),
  contacts: namespace('contacts', createContacts),
  queues: namespace('queues', createQueues),
  contactLists: namespace('contactLists', createContactLists),
  campaigns: namespace('campaigns', createCampaigns),
  chats: namespace('chats', createChats),
  announcements: namespace('announcements', createAnnouncements),
  schedules: namespace('schedules', createSchedules),
  transcription: namespace('transcription', createTranscription),
  proxies: namespace('proxies', createProxies),
  prompts: namespace('prompts', createPrompts),
  files: namespace('files', createFiles),
  flows: namespace('flows', createFlows),
  catalog: namespace('catalog', createCatalog),
  orders: namespace('orders', createOrders),
  objstore: namespace('objstore', createObjstore),
  billing: namespace('billing', createBilling),
  companyTemplates: namespace('companyTemplates', createCompanyTemplates),
  contactSellers: namespace('contactSellers', createContactSellers),
  bizchat: namespace('bizchat', createBizchat),
  dashboards: namespace('dashboards', createDashboards),
} as const;

type CoreModules = typeof CORE_MODULES;
/** The name of a module of the core. */
export type CoreModuleName = keyof CoreModules;
type Merge<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** The ports one module's factory takes. */
export type PortsOf<M extends CoreModuleName> = Parameters<CoreModules[M]>[0];
/** The namespaces one module adds to the application. */
export type NamespacesOf<M extends CoreModuleName> = ReturnType<CoreModules[M]>;

/** Ports no module's factory takes but the platform around the core does (job runners, the CNPJ lookup). */
export interface PlatformPorts {
  readonly companyRegistry: CompanyRegistry;
  /** Where background jobs wait for a runner (claimed in the database). */
  readonly jobStore: JobStore;
}

/**
 * Every port the core's modules need (derived from `CORE_MODULES`: every factory's own ports and the
 * shared ones); a composition root supplies one adapter for each.
 */
export interface CorePorts extends Merge<PortsOf<CoreModuleName>>, PlatformPorts {}

/** Every use case, one namespace per feature (`app.tags.createTag`), derived from `CORE_MODULES`. */
export type Application = Merge<NamespacesOf<CoreModuleName>>;

/**
 * Every use case, built from the ports by every module of `CORE_MODULES`. Pure wiring, no I/O.
 * Embedding applications and use-case tests compose the core with this; the backend composes the
 * same per-feature factories through its module list.
 */
export function createApplication(p: CorePorts): Application {
  const app: Record<string, unknown> = {};
  for (const create of Object.values(CORE_MODULES) as Array<(p: CorePorts) => object>) Object.assign(app, create(p));
  return app as Application;
}
