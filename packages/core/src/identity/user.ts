import type { Profile } from '../shared/actor.js';

export type EnabledDisabled = 'enabled' | 'disabled';

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
  /** The file name of the profile picture, served at `/public/company<companyId>/user/<profileImage>`. */
  profileImage: string | null;
  allTicket: 'enable' | 'disable';
  defaultTicketsManagerWidth: number;
  defaultTheme: 'light' | 'dark';
  defaultMenu: 'open' | 'closed';
  startWork: string | null;
  endWork: string | null;
  farewellMessage: string | null;
  /** The user's default connection (the lineage's `whatsappId`), null for none. */
  chatappId: number | null;
  /** Permissions and screens the frontend shows or hides for an operator (stored as the lineage's client sets them). */
  allHistoric: EnabledDisabled;
  allUserChat: EnabledDisabled;
  userClosePendingTicket: EnabledDisabled;
  showDashboard: EnabledDisabled;
  allowRealTime: EnabledDisabled;
  allowConnections: EnabledDisabled;
  allowGroup: boolean;
  lastLoginAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The flags a new user gets unless given (the lineage's defaults). */
export const USER_FLAG_DEFAULTS: Pick<User, UserFlag> = {
  chatappId: null,
  allHistoric: 'disabled',
  allUserChat: 'disabled',
  userClosePendingTicket: 'enabled',
  showDashboard: 'disabled',
  allowRealTime: 'disabled',
  allowConnections: 'disabled',
  allowGroup: false,
};

export type UserFlag =
  | 'chatappId'
  | 'allHistoric'
  | 'allUserChat'
  | 'userClosePendingTicket'
  | 'showDashboard'
  | 'allowRealTime'
  | 'allowConnections'
  | 'allowGroup';

/** A user to add: the flags may be left out (their defaults apply). */
export type NewUser = Omit<User, 'id' | UserFlag> & Partial<Pick<User, UserFlag>>;

/** A new user with every flag set (given or default). */
export function withUserDefaults(user: NewUser): Omit<User, 'id'> {
  return { ...USER_FLAG_DEFAULTS, ...user };
}

/** What the wire says of a profile: the lineage's client knows `admin` and `user`; a super user is an `admin` with `super: true`. */
export type WireProfile = 'user' | 'admin';

export function toWireProfile(profile: Profile): WireProfile {
  return profile === 'user' ? 'user' : 'admin';
}

/** The profile a request means: `admin` with `super: true` is a super user; `super` is accepted as such too. */
export function fromWireProfile(profile: Profile, superFlag: boolean | undefined): Profile {
  return profile === 'admin' && superFlag === true ? 'super' : profile;
}

/** What the API shows of a user: never the hash or the token version; dates as ISO strings; the profile as the wire says it. */
export interface UserView extends Omit<User, 'passwordHash' | 'tokenVersion' | 'profile' | 'lastLoginAt' | 'createdAt' | 'updatedAt'> {
  profile: WireProfile;
  super: boolean;
  lastLoginAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toUserView(u: User): UserView {
  const { passwordHash: _hash, tokenVersion: _version, profile, lastLoginAt, createdAt, updatedAt, ...visible } = u;
  return {
    ...visible,
    profile: toWireProfile(profile),
    super: profile === 'super',
    lastLoginAt: lastLoginAt ? lastLoginAt.toISOString() : null,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}
