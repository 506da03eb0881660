import type { RealtimeEvents } from '../realtime/ports.js';
import type { UserEvent } from './user-events.js';
import type { PlanGuard } from '../tenancy/plan-guard.js';
import { NotFoundError } from '../shared/errors.js';
import type { Clock, PasswordHasher, Transaction } from '../shared/ports.js';
import type { Companies } from '../tenancy/ports.js';
import type { Users } from './ports.js';
import { assertAdmin, isSuper, type Actor, type Profile } from '../shared/actor.js';
import { assertFreeEmail, assertMayGrant, assertName, assertPassword } from './user-rules.js';
import type { UserDetails, UserDetailsReader } from './user-details.js';
import { userFormValues, type UserFormFields } from './user-form.js';

export interface CreateUserInput extends UserFormFields {
  readonly actor: Actor;
  readonly name: string;
  readonly email: string;
  readonly password: string;
  readonly profile?: Profile;
  /** Only super users may create users in another company. */
  readonly companyId?: number;
  /** The queues the user joins (the company's; another id answers 404). */
  readonly queueIds?: readonly number[];
}

export class CreateUser {
  constructor(
    private readonly deps: {
      users: Users;
      companies: Companies;
      planGuard: PlanGuard;
      hasher: PasswordHasher;
      tx: Transaction;
      clock: Clock;
      realtime: RealtimeEvents<UserEvent>;
      details: UserDetailsReader;
    },
  ) {}

  async execute(input: CreateUserInput): Promise<UserDetails> {
    const { users, companies, planGuard, hasher, tx, clock, realtime, details } = this.deps;
    assertAdmin(input.actor);
    const companyId = isSuper(input.actor) && input.companyId ? input.companyId : input.actor.companyId;
    if (!(await companies.findById(companyId))) throw new NotFoundError('ERR_NO_COMPANY_FOUND');
    const profile = input.profile ?? 'user';
    assertMayGrant(input.actor, profile);
    const name = assertName(input.name);
    assertPassword(input.password);
    await details.assertConnection(companyId, input.chatappId);
    await details.assertQueues(companyId, input.queueIds);
    const passwordHash = await hasher.hash(input.password);

    const user = await tx.run(async () => {
      const email = await assertFreeEmail(users, input.email);
      await planGuard.assertRoomFor(companyId, 'users', await users.countByCompany(companyId));
      const now = clock.now();
      const added = await users.add({
        companyId,
        name,
        email,
        passwordHash,
        profile,
        tokenVersion: 0,
        mustChangePassword: false,
        online: false,
        profileImage: null,
        allTicket: 'disable',
        defaultTicketsManagerWidth: 550,
        defaultTheme: 'light',
        defaultMenu: 'open',
        startWork: null,
        endWork: null,
        farewellMessage: null,
        lastLoginAt: null,
        createdAt: now,
        updatedAt: now,
        ...userFormValues(input),
      });
      if (input.queueIds?.length) await details.setQueues(companyId, added.id, input.queueIds);
      return added;
    });
    const view = await details.one(user);
    await realtime.publish(companyId, { entity: 'user', data: { action: 'create', user: view } });
    return view;
  }
}
