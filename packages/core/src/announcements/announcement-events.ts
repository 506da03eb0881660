import type { RealtimeEventOf } from '../realtime/ports.js';
import type { AnnouncementView } from './announcement.js';

/**
 * Who in a company receives an announcement frame: everyone, only its super users (who follow
 * every announcement, as their list does), or everyone but them (who follow what they may read).
 */
export type AnnouncementReaders = 'company' | 'supers' | 'exceptSupers';

/**
 * `company-announcement` (the lineage's name: no company id in it), on each company's namespace
 * it concerns: `create`/`update` with the announcement as that company's readers see it, `delete`
 * when it is gone or no longer theirs to read. `readers` says who in the company receives it; it
 * stays on the server (frames carry `data` only).
 */
export type AnnouncementEvent = RealtimeEventOf<
  'announcement',
  | { readonly action: 'create'; readonly record: AnnouncementView }
  | { readonly action: 'update'; readonly record: AnnouncementView }
  | { readonly action: 'delete'; readonly id: number }
> & { readonly readers: AnnouncementReaders };
