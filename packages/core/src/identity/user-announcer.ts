import type { RealtimeEvents } from '../realtime/ports.js';
import type { User } from './user.js';
import type { UserDetails, UserDetailsReader } from './user-details.js';
import type { UserEvent } from './user-events.js';

/** Tells the company's users that an operator changed (`company-<id>-user`), as the details they read. */
export class UserAnnouncer {
  constructor(private readonly deps: { readonly details: Pick<UserDetailsReader, 'one'>; readonly realtime: RealtimeEvents<UserEvent> }) {}

  /** Publishes the user's details as an update; answers them. */
  async updated(user: User): Promise<UserDetails> {
    const view = await this.deps.details.one(user);
    await this.deps.realtime.publish(user.companyId, { entity: 'user', data: { action: 'update', user: view } });
    return view;
  }
}
