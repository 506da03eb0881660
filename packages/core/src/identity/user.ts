import type { Profile } from '../shared/actor.js';


export interface User {
  id: number;
  companyId: number;
  name: string;
  email: string;
  passwordHash: string;
  profile: Profile;
  /** Bumped to revoke every token of the user at once (new password or profile, company deactivated, refresh-token replay). */
  tokenVersion: number;
  /** Set for accounts seeded with the built-in default password. */
  mustChangePassword: boolean;
  online: boolean;
  profileImage: string | null;
  allTicket: 'enable' | 'disable';
  defaultTicketsManagerWidth: number;
  defaultTheme: 'light' | 'dark';
  defaultMenu: 'open' | 'closed';
  startWork: string | null;
  endWork: string | null;
  farewellMessage: string | null;
  lastLoginAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewUser = Omit<User, 'id'>;

/** What the API shows of a user: never the hash or the token version; dates as ISO strings. */
export interface UserView extends Omit<User, 'passwordHash' | 'tokenVersion' | 'lastLoginAt' | 'createdAt' | 'updatedAt'> {
  super: boolean;
  lastLoginAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toUserView(u: User): UserView {
  const { passwordHash: _hash, tokenVersion: _version, lastLoginAt, createdAt, updatedAt, ...visible } = u;
  return {
    ...visible,
    super: u.profile === 'super',
    lastLoginAt: lastLoginAt ? lastLoginAt.toISOString() : null,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}
