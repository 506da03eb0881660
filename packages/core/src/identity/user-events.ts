import type { RealtimeEventOf } from '../realtime/ports.js';
import type { UserDetails } from './user-details.js';

/** `company-<id>-user`: an operator was created, changed (also their avatar) or removed. */
export type UserEvent = RealtimeEventOf<
  'user',
  | { readonly action: 'create'; readonly user: UserDetails }
  | { readonly action: 'update'; readonly user: UserDetails }
  | { readonly action: 'delete'; readonly userId: number }
>;
