import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Users } from './ports.js';
import { assertAdmin, isAdmin, isSuper, type Actor } from '../shared/actor.js';
import { visibleUser } from './user-rules.js';
import { toWireProfile } from './user.js';
import type { UserDetails, UserDetailsReader } from './user-details.js';
import { ForbiddenError } from '../shared/errors.js';

export interface ListUsersInput {
  readonly actor: Actor;
  readonly searchParam?: string;
  readonly pageNumber?: number;
  /** Super users may list another company's users. */
  readonly companyId?: number;
}
export interface ListUsersResult {
  readonly users: UserDetails[];
  readonly count: number;
  readonly hasMore: boolean;
}

/** The admin's paged user list, searchable by name or e-mail. */
export class ListUsers {
  constructor(private readonly deps: { users: Users; details: UserDetailsReader }) {}

  async execute(input: ListUsersInput): Promise<ListUsersResult> {
    assertAdmin(input.actor);
    const companyId = isSuper(input.actor) && input.companyId ? input.companyId : input.actor.companyId;
    const page = pageFromNumber(input.pageNumber);
    const result = await this.deps.users.list({ companyId, search: input.searchParam, page });
    return { users: await this.deps.details.many(result.rows), count: result.count, hasMore: hasMore(page, result.count) };
  }
}

export interface UserSummary {
  readonly id: number;
  readonly name: string;
  readonly email: string;
  readonly profile: string;
  readonly online: boolean;
}

/** Every user of the company, trimmed to what pickers (transfer, assign) need. Open to all operators. */
export class ListUsersForPicker {
  constructor(private readonly deps: { users: Users }) {}

  async execute(input: { readonly actor: Actor; readonly companyId?: number }): Promise<UserSummary[]> {
    const companyId = isSuper(input.actor) && input.companyId ? input.companyId : input.actor.companyId;
    const users = await this.deps.users.listAll(companyId);
    return users.map((u) => ({ id: u.id, name: u.name, email: u.email, profile: toWireProfile(u.profile), online: u.online }));
  }
}

/** One user: admins see their company's users, anyone sees themself. */
export class ShowUser {
  constructor(private readonly deps: { users: Users; details: UserDetailsReader }) {}

  async execute(input: { readonly actor: Actor; readonly userId: number }): Promise<UserDetails> {
    if (input.actor.userId !== input.userId && !isAdmin(input.actor)) throw new ForbiddenError('ERR_NO_PERMISSION');
    return this.deps.details.one(await visibleUser(this.deps.users, input.actor, input.userId));
  }
}
