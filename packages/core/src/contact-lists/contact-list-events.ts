import type { RealtimeEventOf } from '../realtime/ports.js';
import type { ContactListImportView } from './contact-list-import.js';
import type { ContactListItemView, ContactListView } from './contact-list-view.js';

/** `company-<id>-ContactList` (the lineage's name): a list was created, changed (its counts too) or removed. */
export type ContactListEvent = RealtimeEventOf<
  'ContactList',
  | { readonly action: 'create'; readonly record: ContactListView }
  | { readonly action: 'update'; readonly record: ContactListView }
  | { readonly action: 'delete'; readonly id: number }
>;

/**
 * `company-<id>-ContactListItem` (the lineage's name): an item was created, changed or removed;
 * `reload` carries items of one list that an import or a number check wrote (the lineage client
 * merges `records` into the page it shows).
 */
export type ContactListItemEvent = RealtimeEventOf<
  'ContactListItem',
  | { readonly action: 'create'; readonly record: ContactListItemView }
  | { readonly action: 'update'; readonly record: ContactListItemView }
  | { readonly action: 'delete'; readonly id: number; readonly contactListId: number }
  | { readonly action: 'reload'; readonly contactListId: number; readonly records: ContactListItemView[] }
>;

/**
 * `company-<id>-contactListImport`: an import's status, flat. `progress` after each batch (its
 * `errors` are that batch's), `done` at the end (`status` `done` or `failed`; `errors` the report's).
 */
export type ContactListImportEvent = RealtimeEventOf<
  'contactListImport',
  (ContactListImportView & { readonly action: 'progress' }) | (ContactListImportView & { readonly action: 'done' })
>;

export type ContactListEvents = ContactListEvent | ContactListItemEvent | ContactListImportEvent;
