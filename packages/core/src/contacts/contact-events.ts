import type { RealtimeEventOf } from '../realtime/ports.js';
import type { ContactView } from './contact-view.js';
import type { ContactImportStatus } from './import-contacts.js';

/** `company-<id>-contact`: a contact was created, changed or removed. */
export type ContactEvent = RealtimeEventOf<
  'contact',
  | { readonly action: 'create'; readonly contact: ContactView }
  | { readonly action: 'update'; readonly contact: ContactView }
  | { readonly action: 'delete'; readonly contactId: number }
>;

/**
 * `company-<id>-contactImport`: the import's status, flat. `progress` after each batch (its
 * `errors` are that batch's), `done` at the end (its `errors` are the report's).
 */
export type ContactImportEvent = RealtimeEventOf<
  'contactImport',
  (ContactImportStatus & { readonly action: 'progress' }) | (ContactImportStatus & { readonly action: 'done' })
>;
