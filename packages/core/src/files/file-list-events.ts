import type { RealtimeEventOf } from '../realtime/ports.js';
import type { FileListView } from './file-list.js';

/**
 * `company-<id>-file` (the lineage's name): a list was created or changed (its options and files
 * too), under `files` as the lineage client reads it, or removed (`fileId`).
 */
export type FileListEvent = RealtimeEventOf<
  'file',
  | { readonly action: 'create'; readonly files: FileListView }
  | { readonly action: 'update'; readonly files: FileListView }
  | { readonly action: 'delete'; readonly fileId: number }
>;
