import type { RealtimeEvents } from '../realtime/ports.js';
import type { UserEvent } from './user-events.js';
import type { PlanGuard } from '../tenancy/plan-guard.js';
import { NotFoundError } from '../shared/errors.js';
import type { Clock, PasswordHasher, Transaction } from '../shared/ports.js';
import type { Companies } from '../tenancy/ports.js';
import type { Users } from './ports.js';
import { assertAdmin, isSuper, type Actor, type Profile } from '../shared/actor.js';
import { assertFreeEmail, assertMayGrant, assertName, assertPassword } from './user-rules.js';
import { toUserView, type UserView } from './user.js';

export interface CreateUserInput {
  readonly actor: Actor;
  readonly name: string;
  readonly email: string;
  readonly password: string;
  readonly profile?: Profile;
  /** Only super users may create users in another company. */
  readonly companyId?: number;
  readonly allTicket?: 'enable' | 'disable';
  readonly startWork?: string | null;
  readonly endWork?: string | null;
  readonly farewellMessage?: string | null;
}

export class CreateUser {
  constructor(private readonly deps: {
    users: Users; companies: Companies; planGuard: PlanGuard; hasher: PasswordHasher; tx: Transaction; clock: Clock; realtime: RealtimeEvents<UserEvent>;
  }) {}

  async execute(input: CreateUserInput): Promise<UserView> {
    const { users, companies, planGuard, hasher, tx, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    const companyId = isSuper(input.actor) && input.companyId ? input.companyId : input.actor.companyId;
    if (!(await companies.findById(companyId))) throw new NotFoundError('ERR_NO_COMPANY_FOUND');
    const profile = input.profile ?? 'user';
    assertMayGrant(input.actor, profile);
    const name = assertName(input.name);
    assertPassword(input.password);
    const passwordHash = await hasher.hash(input.password);

    const user = await tx.run(async () => {
      const email = await assertFreeEmail(users, input.email);
      await planGuard.assertRoomFor(companyId, 'users', await users.countByCompany(companyId));
      const now = clock.now();
      return users.add({
        companyId, name, email, passwordHash, profile, tokenVersion: 0, mustChangePassword: false, online: false,
        profileImage: null, allTicket: input.allTicket ?? 'disable', defaultTicketsManagerWidth: 550, defaultTheme: 'light',
        defaultMenu: 'open', startWork: input.startWork ?? null, endWork: input.endWork ?? null,
        farewellMessage: input.farewellMessage ?? null, lastLoginAt: null, createdAt: now, updatedAt: now,
      });
    });
    const view = toUserView(user);
    await realtime.publish(companyId, { entity: 'user', data: { action: 'create', user: view } });
    return view;
  }
}
