import type { ConnectionEvent, SessionEvent } from '../connections/connection-events.js';
import type { ContactEvent, ContactImportEvent } from '../contacts/contact-events.js';
import type { UserEvent } from '../identity/user-events.js';
import type { QueueEvent, QueueIntegrationEvent } from '../queues/queue-events.js';
import type { SettingEvent } from '../settings/setting-events.js';
import type { TagEvent } from '../tags/tag-events.js';
import type { CompanyEvent } from '../tenancy/company-events.js';
import type { PlatformEvent } from '../tenancy/platform-events.js';
import type { AppMessageEvent, ContactTypingEvent, TicketEvent } from '../tickets/ticket-events.js';
import type { ContactListEvents } from '../contact-lists/contact-list-events.js';
import type { CampaignEvents } from '../campaigns/campaign-events.js';
import type { ChatEvents } from '../chats/chat-events.js';
import type { AnnouncementEvent } from '../announcements/announcement-events.js';
import type { ScheduledMessageEvent, ScheduleEvent } from '../schedules/schedule-events.js';
import type { TranscriptionEvent } from '../transcription/transcription-events.js';
import type { PromptEvent } from '../prompts/prompt-events.js';
import type { FileListEvent } from '../files/file-list-events.js';
import type { FlowEvent } from '../flows/flow-events.js';
import type { ObjstoreConfigEvent } from '../objstore/objstore-events.js';
import type { OrderEvent } from '../orders/order-events.js';
import type { CatalogEvents } from '../catalog/catalog-events.js';
import type { PaymentEvent } from '../billing/billing-events.js';
import type { CompanyTemplateEvent } from '../company-templates/company-template-events.js';

/**
 * Every realtime event the core publishes: one member per entity, whose `data` has one member per
 * action. Each feature declares its events next to its views and types its publishers with them;
 * this folder only gathers them, for the adapters that present them (frame
 * `{ seq, event: 'company-<id>-<entity>', data }`) and the composition layers that hand a
 * `RealtimeEvents<RealtimeEvent>` to the features. No feature folder imports this one.
 */
export type RealtimeEvent =
  | UserEvent
  | CompanyEvent
  | PlatformEvent
  | SettingEvent
  | QueueEvent
  | QueueIntegrationEvent
  | ConnectionEvent
  | SessionEvent
  | ContactEvent
  | ContactImportEvent
  | TagEvent
  | TicketEvent
  | AppMessageEvent
  | ContactTypingEvent
  | ContactListEvents
  | CampaignEvents
  | ChatEvents
  | AnnouncementEvent
  | ScheduleEvent
  | ScheduledMessageEvent
  | TranscriptionEvent
  | PromptEvent
  | FileListEvent
  | FlowEvent
  | ObjstoreConfigEvent
  | OrderEvent
  | CatalogEvents
  | PaymentEvent
  | CompanyTemplateEvent;

type Entity = RealtimeEvent['entity'];
type ActionOf<E extends Entity> = Extract<RealtimeEvent, { entity: E }>['data']['action'];

type NamesOf<E extends Entity, A = ActionOf<E>> = A extends string ? { readonly entity: E; readonly action: A } : never;
/** One published (entity, action) pair: a union with one member per pair. */
export type RealtimeEventName = { [E in Entity]: NamesOf<E> }[Entity];

/** Every action of every entity, exactly: the compiler refuses a missing or an extra one. */
const ACTIONS: { readonly [E in Entity]: { readonly [A in ActionOf<E>]: true } } = {
  user: { create: true, update: true, delete: true },
  company: { update: true },
  platform: { company: true, plan: true, setting: true },
  settings: { update: true },
  queue: { update: true, delete: true },
  queueIntegration: { create: true, update: true, delete: true },
  chatapp: { update: true, delete: true },
  chatappSession: { update: true },
  contact: { create: true, update: true, delete: true },
  contactImport: { progress: true, done: true },
  tag: { create: true, update: true, delete: true, contact: true },
  ticket: { create: true, update: true, updateUnread: true, delete: true, closeMany: true },
  appMessage: { create: true, update: true },
  contactTyping: { update: true },
  ContactList: { create: true, update: true, delete: true },
  ContactListItem: { create: true, update: true, delete: true, reload: true },
  contactListImport: { progress: true, done: true },
  campaign: { create: true, update: true, delete: true },
  campaignProgress: { progress: true },
  campaignSettings: { create: true },
  chat: { 'new-message': true, update: true, delete: true },
  'chat-user': { create: true, update: true },
  announcement: { create: true, update: true, delete: true },
  schedule: { create: true, update: true, delete: true },
  scheduledMessage: { create: true, update: true, delete: true },
  transcription: { update: true },
  prompt: { create: true, update: true, delete: true },
  file: { create: true, update: true, delete: true },
  flow: { create: true, update: true, publish: true, delete: true },
  objstoreConfig: { create: true, update: true, delete: true },
  order: { create: true, update: true, delete: true },
  product: { create: true, update: true, delete: true },
  category: { create: true, update: true, delete: true },
  productImport: { progress: true, done: true },
  payment: { CONCLUIDA: true },
  companyTemplate: { create: true, update: true, delete: true },
};

/** The (entity, action) pairs of `RealtimeEvent`, for tests and documentation. */
export const REALTIME_EVENT_NAMES: readonly RealtimeEventName[] = Object.entries(ACTIONS).flatMap(([entity, actions]) =>
  Object.keys(actions).map((action) => ({ entity, action }) as RealtimeEventName),
);
