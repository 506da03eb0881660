import type { RealtimeEventOf } from '../realtime/ports.js';
import type { TagSummary, TagView } from './tag.js';

/** `company-<id>-tag`: a tag was created, changed or removed, or a contact's tags changed (`contact`). */
export type TagEvent = RealtimeEventOf<
  'tag',
  | { readonly action: 'create'; readonly tag: TagView }
  | { readonly action: 'update'; readonly tag: TagView }
  | { readonly action: 'delete'; readonly tagId: number }
  | { readonly action: 'contact'; readonly contactId: number; readonly tags: TagSummary[] }
>;
