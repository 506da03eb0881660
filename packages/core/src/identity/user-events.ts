import type { RealtimeEventOf } from '../realtime/ports.js';
import type { UserView } from './user.js';

/** `company-<id>-user`: an operator was created, changed (also their avatar) or removed. */
export type UserEvent = RealtimeEventOf<'user',
  | { readonly action: 'create'; readonly user: UserView }
  | { readonly action: 'update'; readonly user: UserView }
  | { readonly action: 'delete'; readonly userId: number }>;
