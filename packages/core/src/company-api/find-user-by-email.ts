import type { Users } from '../identity/ports.js';
import { assertSuper, type Actor } from '../shared/actor.js';
import { toUserView, type UserView } from '../identity/user.js';
import { NotFoundError } from '../shared/errors.js';
import { normalizeEmail } from '../shared/text.js';

/** Looks a user up by login e-mail across every company (super users and the integration API). */
export class FindUserByEmail {
  constructor(private readonly deps: { users: Users }) {}

  async execute(input: { actor: Actor; email: string }): Promise<UserView> {
    assertSuper(input.actor);
    const user = await this.deps.users.findByEmail(normalizeEmail(input.email));
    if (!user) throw new NotFoundError('ERR_NO_USER_FOUND');
    return toUserView(user);
  }
}
