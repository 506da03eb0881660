import type { RealtimeEvents } from '../realtime/ports.js';
import type { UserEvent } from './user-events.js';
import { ForbiddenError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { RefreshSessions, Users } from './ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { assertMayGrant, visibleUser } from './user-rules.js';

export class DeleteUser {
  constructor(private readonly deps: { users: Users; sessions: RefreshSessions; tx: Transaction; clock: Clock; realtime: RealtimeEvents<UserEvent> }) {}

  async execute(input: { readonly actor: Actor; readonly userId: number }): Promise<void> {
    const { users, sessions, tx, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    if (input.actor.userId === input.userId) throw new ForbiddenError('ERR_CANNOT_DELETE_SELF');
    const user = await visibleUser(users, input.actor, input.userId);
    assertMayGrant(input.actor, user.profile);
    // Its access tokens die with the row (Authenticate finds no user); its refresh families with it.
    await tx.run(async () => {
      await sessions.revokeAllOfUser(user.id, clock.now());
      await users.remove(user.companyId, user.id);
    });
    await realtime.publish(user.companyId, { entity: 'user', data: { action: 'delete', userId: user.id } });
  }
}
