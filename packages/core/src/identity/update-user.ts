import type { RealtimeEvents } from '../realtime/ports.js';
import type { UserEvent } from './user-events.js';
import { ForbiddenError } from '../shared/errors.js';
import type { Clock, PasswordHasher, Transaction } from '../shared/ports.js';
import type { RefreshSessions, Users } from './ports.js';
import { assertFreeEmail, assertMayGrant, assertName, assertPassword, visibleUser } from './user-rules.js';
import { isAdmin, type Actor, type Profile } from '../shared/actor.js';
import type { UserDetails, UserDetailsReader } from './user-details.js';
import { applyUserForm, type UserFormFields } from './user-form.js';

export interface UpdateUserInput extends UserFormFields {
  readonly actor: Actor;
  readonly userId: number;
  readonly name?: string;
  readonly email?: string;
  /** Absent (or, on the wire, empty): unchanged. */
  readonly password?: string;
  readonly profile?: Profile;
  /** The user's queues, exactly (admins only; absent: unchanged). */
  readonly queueIds?: readonly number[];
}

/**
 * Admins edit the users of their company; anyone edits themself. Nobody raises their own
 * profile or grants more than they hold; only admins change queues. Setting a password clears
 * `mustChangePassword`. A new password or profile ends every session of the user at once, the
 * caller's own included: the token version is bumped (earlier access tokens answer 401) and the
 * refresh families are revoked, in the same transaction as the change.
 */
export class UpdateUser {
  constructor(
    private readonly deps: {
      users: Users;
      sessions: RefreshSessions;
      hasher: PasswordHasher;
      tx: Transaction;
      clock: Clock;
      realtime: RealtimeEvents<UserEvent>;
      details: UserDetailsReader;
    },
  ) {}

  async execute(input: UpdateUserInput): Promise<UserDetails> {
    const { users, sessions, hasher, tx, clock, realtime, details } = this.deps;
    const { actor } = input;
    const self = actor.userId === input.userId;
    if (!self && !isAdmin(actor)) throw new ForbiddenError('ERR_NO_PERMISSION');
    const user = await visibleUser(users, actor, input.userId);
    if (!self) assertMayGrant(actor, user.profile);
    let endSessions = false;

    if (input.profile !== undefined && input.profile !== user.profile) {
      if (self) throw new ForbiddenError('ERR_CANNOT_CHANGE_OWN_PROFILE');
      assertMayGrant(actor, input.profile);
      user.profile = input.profile;
      endSessions = true;
    }
    if (input.name !== undefined) user.name = assertName(input.name);
    if (input.email !== undefined) user.email = await assertFreeEmail(users, input.email, user.id);
    if (input.password !== undefined) {
      assertPassword(input.password);
      user.passwordHash = await hasher.hash(input.password);
      user.mustChangePassword = false;
      endSessions = true;
    }
    if (input.chatappId !== undefined && input.chatappId !== user.chatappId) await details.assertConnection(user.companyId, input.chatappId);
    // An operator editing themself sends their queues back unchanged; only an admin changes them.
    const queueIds = input.queueIds !== undefined && isAdmin(actor) ? input.queueIds : undefined;
    await details.assertQueues(user.companyId, queueIds);
    applyUserForm(user, input);
    const now = clock.now();
    user.updatedAt = now;
    if (endSessions) user.tokenVersion += 1;
    await tx.run(async () => {
      await users.update(user);
      if (queueIds !== undefined) await details.setQueues(user.companyId, user.id, queueIds);
      if (endSessions) await sessions.revokeAllOfUser(user.id, now);
    });
    const view = await details.one(user);
    await realtime.publish(user.companyId, { entity: 'user', data: { action: 'update', user: view } });
    return view;
  }
}
