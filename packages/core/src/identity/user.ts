export type Profile = 'user' | 'admin' | 'super';
export const PROFILES: readonly Profile[] = ['user', 'admin', 'super'];

const RANK: Record<Profile, number> = { user: 0, admin: 1, super: 2 };
/** True when `a` carries at least the powers of `b`. */
export function outranksOrEquals(a: Profile, b: Profile): boolean {
  return RANK[a] >= RANK[b];
}

export interface User {
  id: number;
  companyId: number;
  name: string;
  email: string;
  passwordHash: string;
  profile: Profile;
  /** Bumped to revoke every token of the user at once (refresh-token replay, deletion). */
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

/** What the API shows of a user: never the hash or the token version. */
export interface UserView {
  id: number;
  companyId: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
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
  lastLoginAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toUserView(u: User): UserView {
  return {
    id: u.id,
    companyId: u.companyId,
    name: u.name,
    email: u.email,
    profile: u.profile,
    super: u.profile === 'super',
    mustChangePassword: u.mustChangePassword,
    online: u.online,
    profileImage: u.profileImage,
    allTicket: u.allTicket,
    defaultTicketsManagerWidth: u.defaultTicketsManagerWidth,
    defaultTheme: u.defaultTheme,
    defaultMenu: u.defaultMenu,
    startWork: u.startWork,
    endWork: u.endWork,
    farewellMessage: u.farewellMessage,
    lastLoginAt: u.lastLoginAt ? u.lastLoginAt.toISOString() : null,
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}

/** The verified caller of a use case, taken from a token, never from a request body. */
export interface Actor {
  readonly userId: number;
  readonly companyId: number;
  readonly profile: Profile;
}

export function isSuper(actor: Actor): boolean {
  return actor.profile === 'super';
}

export function isAdmin(actor: Actor): boolean {
  return actor.profile === 'admin' || actor.profile === 'super';
}

/**
 * The caller of the company integration API (`isAuthCompany`): a platform-level integrator
 * with super powers and no company of its own.
 */
export const PLATFORM_INTEGRATION: Actor = Object.freeze({ userId: 0, companyId: 0, profile: 'super' });
