import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Schema } from '../api/client.js';
import { applyChatFrame } from './chat-frames.js';
import type { RealtimeFrame } from './connection.js';
import { contactTypingOf, typingFrameData } from './contact-typing.js';
import { placeTicket } from './ticket-lists.js';
import { ticketViewersOf, viewerFrameData } from './ticket-viewers.js';
import { applyTranscriptionFrame } from './transcription-frames.js';

type Ticket = Schema<'TicketDetails'>;
type Message = Schema<'Message'>;
type MessagePage = Schema<'TicketMessagePage'>;
type Connection = Schema<'Connection'>;
type ContactDetails = Schema<'ContactDetails'>;
type Contact = Schema<'Contact'>;
type TagSummary = Schema<'TagSummary'>;
type ContactImport = Schema<'ContactImportStatus'>;
type ContactListImport = Schema<'ContactListImport'>;
type CampaignReport = Schema<'CampaignReport'>;

/** The query keys the screens use, in one place so the frames find them. */
export const keys = {
  tickets: ['tickets'] as const,
  ticketList: (filters: object) => ['tickets', filters] as const,
  ticket: (id: number) => ['ticket', id] as const,
  messages: (ticketId: number) => ['messages', ticketId] as const,
  connections: ['chatapps'] as const,
  queues: ['queues'] as const,
  /** The queue integrations screen's pages (`GET /queueIntegration`), every search under one key. */
  queueIntegrations: ['queueIntegrations'] as const,
  /** Every tag of the company (`GET /tags/list`). */
  tags: ['tags'] as const,
  /** The company's users, for pickers (`GET /users/list`). */
  users: ['users'] as const,
  contact: (id: number) => ['contact', id] as const,
  /** The pages of the contacts screen's list (`GET /contacts`), every filter under one key. */
  contacts: ['contacts'] as const,
  /** A contact import's progress, then its report: its `contactImport` frames land here. */
  contactImport: (importId: string) => ['contactImport', importId] as const,
  /** A contact's tickets: under `tickets`, so it refreshes with the ticket lists. */
  contactTickets: (contactId: number) => ['tickets', 'contact', contactId] as const,
  setting: (key: string) => ['setting', key] as const,
  /** Every company setting with the public platform ones (`GET /settings`): under `setting`, so a settings frame refetches it. */
  settingList: ['setting', 'list'] as const,
  /** The company's record (`GET /companies/:id`: its business hours), refetched by its `company` frame. */
  company: (id: number) => ['company', id] as const,
  /** The quick replies (`GET /company-templates`), every search under one key. */
  companyTemplates: ['companyTemplates'] as const,
  companyTemplateList: (search: string) => ['companyTemplates', search] as const,
  /** The approved templates of a bizchat connection (`GET /bizchat-templates`). */
  bizchatTemplates: (chatappId: number) => ['bizchatTemplates', chatappId] as const,
  /** The company's invoices (`GET /invoices`), refetched by the `payment` frame when the gateway confirms one. */
  invoices: ['invoices'] as const,
  /** The platform's announcements: the super users' list and everyone's banner, refetched by the `company-announcement` frames. */
  announcements: ['announcements'] as const,
  /** The platform's plans (`GET /plans`), refetched by the super users' `platform` frames (`plan`). */
  plans: ['plans'] as const,
  /** The platform screens' companies (`GET /companiesPlan`, `/companies/list`), refetched by the super users' `platform` frames (`company`). */
  platformCompanies: ['platformCompanies'] as const,
  /** The contact lists and their items (`/contact-lists`, `/contact-list-items`): `ContactList` and `ContactListItem` frames refetch them. */
  contactLists: ['contactLists'] as const,
  /** A list's latest upload, moved by its `contactListImport` frames. */
  contactListImport: (contactListId: number) => ['contactListImport', contactListId] as const,
  /** The campaigns' pages, one campaign with its progress, its report (`/campaigns`): `campaign` frames refetch them. */
  campaigns: ['campaigns'] as const,
  campaign: (id: number) => ['campaigns', 'one', id] as const,
  /** The pacing settings (`GET /campaign-settings`), refetched by `campaignSettings` frames. */
  campaignSettings: ['campaignSettings'] as const,
  /** The flows' pages and one flow with its draft (`/flows`), refetched by `flow` frames. */
  flows: ['flows'] as const,
  flow: (id: number) => ['flows', 'one', id] as const,
  /** The AI assistants (`/prompt`) and the editor's options: `prompt` frames (to admins) refetch them. */
  prompts: ['prompts'] as const,
  /** The file lists (`/files`), every search under one key: `file` frames refetch them. */
  fileLists: ['fileLists'] as const,
  /** The catalog's products and categories (`/products`, `/categories`), refetched by `product` and `category` frames. */
  catalog: ['catalog'] as const,
  /** The company's latest product import, replaced by each `productImport` frame's record. */
  productImport: ['productImport'] as const,
  /** The orders' columns, one order with its log, the order settings (`/orders`, `/order-settings`): `order` frames refetch them. */
  orders: ['orders'] as const,
  /** The company's object-store configs (`GET /objstore-configs`), refetched by `objstoreConfig` frames (to admins). */
  objstoreConfigs: ['objstoreConfigs'] as const,
  /** The scheduled messages' pages and one with its sends (`/schedules-message`), refetched by `scheduledMessage` frames. */
  scheduledMessages: ['scheduledMessages'] as const,
};

const entityOf = (event: string) => event.replace(/^company-\d+-/, '');

/**
 * The lists of tickets refetch at once on the first frame, then at most once more every 150 ms
 * however many frames follow (their last state is fetched when the burst is over). Ticket frames
 * also place their ticket in the loaded lists right away (`placeTicket`): the refetch reconciles.
 */
const LIST_REFRESH_MS = 150;
const listRefresh = new WeakMap<QueryClient, { timer: ReturnType<typeof setTimeout>; again: boolean }>();
function refreshTicketLists(client: QueryClient) {
  const pending = listRefresh.get(client);
  if (pending) {
    pending.again = true;
    return;
  }
  void client.invalidateQueries({ queryKey: keys.tickets });
  const state = {
    again: false,
    timer: setTimeout(() => {
      listRefresh.delete(client);
      if (state.again) refreshTicketLists(client);
    }, LIST_REFRESH_MS),
  };
  listRefresh.set(client, state);
}

function upsertMessage(client: QueryClient, message: Message, appendIfMissing: boolean) {
  client.setQueryData<InfiniteData<MessagePage>>(keys.messages(message.ticketId), (data) => {
    if (!data) return data;
    let found = false;
    const pages = data.pages.map((page) => ({
      ...page,
      messages: page.messages.map((m) => {
        if (m.id !== message.id) return m;
        found = true;
        return { ...m, ...message };
      }),
    }));
    if (!found && appendIfMissing && pages[0]) pages[0] = { ...pages[0], messages: [...pages[0].messages, message], count: pages[0].count + 1 };
    return { ...data, pages };
  });
}

/** A contact changed: its panel and every ticket shown with it follow (the tags given, or those kept). */
function patchContact(client: QueryClient, contactId: number, change: Partial<Contact> & { tags?: TagSummary[] }) {
  client.setQueryData<ContactDetails>(keys.contact(contactId), (c) => (c ? { ...c, ...change } : c));
  client.setQueriesData<Ticket>({ queryKey: ['ticket'] }, (t) => (t?.contact?.id === contactId ? { ...t, contact: { ...t.contact, ...change } } : t));
}

/** The most refused rows an import's report lists (the server's own limit). */
const MAX_IMPORT_ERRORS = 1000;

/**
 * A contact import's frame: `progress` carries the counts so far and that batch's refused rows
 * (added to those already listed), `done` the whole report; once done the contact lists refetch.
 */
function applyImportFrame(client: QueryClient, frame: ContactImport & { action: string }) {
  const { action, ...status } = frame;
  client.setQueryData<ContactImport>(keys.contactImport(status.importId), (known) => {
    if (action === 'done' || !known) return status;
    if (known.status !== 'running' || known.processed >= status.processed) return known;
    return { ...status, errors: [...known.errors, ...status.errors].slice(0, MAX_IMPORT_ERRORS) };
  });
  if (action === 'done') void client.invalidateQueries({ queryKey: keys.contacts });
}

/**
 * A contact list upload's frame: `progress` carries the counts so far and that batch's refused rows
 * (added to those listed), `done` the whole report; the list and its items then refetch.
 */
function applyListImportFrame(client: QueryClient, frame: ContactListImport & { action: string }) {
  const { action, ...status } = frame;
  client.setQueryData<ContactListImport>(keys.contactListImport(status.contactListId), (known) => {
    if (action === 'done' || !known || known.importId !== status.importId) return status;
    if (known.status === 'done' || known.status === 'failed' || known.processed >= status.processed) return known;
    return { ...status, errors: [...known.errors, ...status.errors].slice(0, MAX_IMPORT_ERRORS) };
  });
  if (action === 'done') void client.invalidateQueries({ queryKey: keys.contactLists });
}

/** Applies one frame of the company namespace to what the screens show. */
export function applyFrame(client: QueryClient, frame: RealtimeFrame): void {
  const entity = entityOf(frame.event);
  const data = frame.data as Record<string, unknown>;
  // The internal chats' frames (`chat`, `chat-<id>`, `chat-user-<id>`): src/realtime/chat-frames.ts.
  if (entity === 'chat' || entity.startsWith('chat-')) {
    applyChatFrame(client, entity, data);
    return;
  }
  switch (entity) {
    case 'ticket': {
      const ticket = data.ticket as Ticket | undefined;
      if (ticket && (data.action === 'update' || data.action === 'create' || data.action === 'updateUnread')) {
        client.setQueryData(keys.ticket(ticket.id), ticket);
        placeTicket(client, ticket);
      }
      if (data.action === 'delete' && typeof data.ticketId === 'number' && !data.from) client.removeQueries({ queryKey: keys.ticket(data.ticketId) });
      // Close all (`POST /tickets/closeAll`): the ids only; an open conversation's header shows it closed.
      if (data.action === 'closeMany' && Array.isArray(data.ticketIds)) {
        for (const id of data.ticketIds) if (typeof id === 'number') client.setQueryData<Ticket>(keys.ticket(id), (t) => (t ? { ...t, status: 'closed' } : t));
      }
      refreshTicketLists(client);
      return;
    }
    case 'appMessage': {
      const message = data.message as Message | undefined;
      if (!message) return;
      upsertMessage(client, message, data.action === 'create');
      // The contact's message ends their typing.
      if (data.action === 'create' && !message.fromMe) contactTypingOf(client).clear(message.ticketId);
      if (data.action === 'create') {
        const ticket = data.ticket as Ticket | undefined;
        if (ticket) {
          client.setQueryData(keys.ticket(ticket.id), ticket);
          placeTicket(client, ticket);
        }
        refreshTicketLists(client);
      }
      return;
    }
    case 'chatapp':
    case 'chatappSession': {
      const connection = (data.chatapp ?? data.session) as Connection | undefined;
      if (data.action === 'delete' && typeof data.chatappId === 'number') {
        client.setQueryData<Connection[]>(keys.connections, (list) => list?.filter((c) => c.id !== data.chatappId));
        return;
      }
      if (!connection) return;
      client.setQueryData<Connection[]>(keys.connections, (list) => {
        if (!list) return list;
        return list.some((c) => c.id === connection.id) ? list.map((c) => (c.id === connection.id ? { ...c, ...connection } : c)) : [...list, connection];
      });
      return;
    }
    case 'queue':
      void client.invalidateQueries({ queryKey: keys.queues });
      return;
    // Admins only (the server sends them to no one else): the integrations screen and the queues' integration picker.
    case 'queueIntegration':
      void client.invalidateQueries({ queryKey: keys.queueIntegrations });
      void client.invalidateQueries({ queryKey: [...keys.queues, 'integrations'] });
      return;
    case 'contact': {
      if (data.action === 'delete' && typeof data.contactId === 'number') {
        client.removeQueries({ queryKey: keys.contact(data.contactId) });
        void client.invalidateQueries({ queryKey: keys.contacts });
        refreshTicketLists(client);
        return;
      }
      const contact = data.contact as Contact | undefined;
      if (!contact) return;
      patchContact(client, contact.id, contact);
      void client.invalidateQueries({ queryKey: keys.contacts });
      refreshTicketLists(client);
      return;
    }
    case 'contactImport': {
      if (typeof data.importId !== 'string') return;
      applyImportFrame(client, data as unknown as ContactImport & { action: string });
      return;
    }
    // Admins only, as the routes: a list or item changed, or a number check's verdicts.
    case 'ContactList':
    case 'ContactListItem':
      void client.invalidateQueries({ queryKey: keys.contactLists });
      return;
    case 'contactListImport':
      if (typeof data.contactListId !== 'number') return;
      applyListImportFrame(client, data as unknown as ContactListImport & { action: string });
      return;
    case 'campaign':
      void client.invalidateQueries({ queryKey: keys.campaigns });
      return;
    // At most once a second per sending campaign: its counts, patched in place (the report follows its `campaign` frame).
    case 'campaignProgress': {
      if (typeof data.id !== 'number' || !data.progress) return;
      const change = {
        progress: data.progress as CampaignReport['progress'],
        ...(typeof data.status === 'string' ? { status: data.status as CampaignReport['status'] } : {}),
      };
      client.setQueryData<CampaignReport>(keys.campaign(data.id), (c) => (c ? { ...c, ...change } : c));
      return;
    }
    case 'campaignSettings':
      void client.invalidateQueries({ queryKey: keys.campaignSettings });
      return;
    // A flow created, renamed, its draft saved, published or deleted (admins only): the list and an open editor read it anew.
    case 'flow':
      void client.invalidateQueries({ queryKey: keys.flows });
      return;
    case 'tag':
      if (data.action === 'contact' && typeof data.contactId === 'number' && Array.isArray(data.tags)) {
        patchContact(client, data.contactId, { tags: data.tags as TagSummary[] });
        void client.invalidateQueries({ queryKey: keys.contacts });
        return;
      }
      // A tag renamed, recoloured or removed: the pickers, the contacts and the lists show it anew.
      void client.invalidateQueries({ queryKey: keys.tags });
      void client.invalidateQueries({ queryKey: ['contact'] });
      void client.invalidateQueries({ queryKey: keys.contacts });
      refreshTicketLists(client);
      return;
    case 'user':
      void client.invalidateQueries({ queryKey: keys.users });
      return;
    case 'settings':
      void client.invalidateQueries({ queryKey: ['setting'] });
      return;
    case 'company':
      void client.invalidateQueries({ queryKey: ['company'] });
      return;
    // For super users: another super user (or a sign-up, or the company API) changed a company, a plan or a platform setting.
    case 'platform': {
      const action = (data as { action?: string }).action;
      if (action === 'company') {
        void client.invalidateQueries({ queryKey: keys.platformCompanies });
        void client.invalidateQueries({ queryKey: ['company'] });
      } else if (action === 'plan') void client.invalidateQueries({ queryKey: keys.plans });
      else if (action === 'setting') void client.invalidateQueries({ queryKey: ['setting'] });
      return;
    }
    // The platform's announcements: `company-announcement`, without a company id in the name.
    case 'company-announcement':
      void client.invalidateQueries({ queryKey: keys.announcements });
      return;
    // A background transcription job's progress (src/realtime/transcription-frames.ts).
    case 'transcription':
      applyTranscriptionFrame(client, data);
      return;
    // A contact schedule created, edited, deleted, or one of its occurrences settled: the schedules screen reads it anew.
    case 'schedule':
      void client.invalidateQueries({ queryKey: ['schedules'] });
      return;
    // A scheduled message created, edited, deleted, or one of its sends settled: its list and its sends read anew.
    case 'scheduledMessage':
      void client.invalidateQueries({ queryKey: keys.scheduledMessages });
      return;
    // An AI assistant or a file list created, changed or removed: their screens read them anew.
    case 'prompt':
      void client.invalidateQueries({ queryKey: keys.prompts });
      return;
    case 'file':
      void client.invalidateQueries({ queryKey: keys.fileLists });
      return;
    // The catalog and the orders: their screens read again; an import's record carries its counts and refused rows so far.
    case 'product':
    case 'category':
      void client.invalidateQueries({ queryKey: keys.catalog });
      return;
    case 'productImport':
      if (data.record) client.setQueryData(keys.productImport, data.record);
      if (data.action === 'done') void client.invalidateQueries({ queryKey: keys.catalog });
      return;
    case 'order':
      void client.invalidateQueries({ queryKey: keys.orders });
      return;
    // An object-store config created, edited, (de)activated or deleted: the storage screen reads the list anew.
    case 'objstoreConfig':
      void client.invalidateQueries({ queryKey: keys.objstoreConfigs });
      return;
    case 'companyTemplate':
      void client.invalidateQueries({ queryKey: keys.companyTemplates });
      return;
    // The gateway confirmed a payment (to admins): the invoice is paid and the company's due date moved.
    case 'payment':
      void client.invalidateQueries({ queryKey: keys.invoices });
      void client.invalidateQueries({ queryKey: ['company'] });
      return;
    // Ephemeral (no seq, never replayed): who else has a ticket open, kept apart from the query cache.
    case 'ticketViewer': {
      const viewer = viewerFrameData(data);
      if (viewer) ticketViewersOf(client).apply(viewer);
      return;
    }
    // Ephemeral too: the contact typing or recording, kept apart from the query cache.
    case 'contactTyping': {
      const typing = typingFrameData(data);
      if (typing) contactTypingOf(client).apply(typing);
      return;
    }
    default:
      return;
  }
}

/** After a resync (or a reconnect without a known seq): everything shown is reloaded. */
export function reloadEverything(client: QueryClient): void {
  void client.invalidateQueries();
}
