import type { RealtimeEventOf } from '../realtime/ports.js';
import type { ObjstoreConfigView } from './objstore-config.js';

/** `company-<id>-objstoreConfig`: a config was created, changed (also deactivated by another's activation) or removed. */
export type ObjstoreConfigEvent = RealtimeEventOf<
  'objstoreConfig',
  | { readonly action: 'create'; readonly config: ObjstoreConfigView }
  | { readonly action: 'update'; readonly config: ObjstoreConfigView }
  | { readonly action: 'delete'; readonly configId: number }
>;
