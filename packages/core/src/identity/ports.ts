import type { Page, PageRequest } from '../shared/paging.js';
import type { NewUser, User } from './user.js';
import type { Profile } from '../shared/actor.js';

export interface UserQuery {
  readonly companyId: number | null;
  readonly search?: string;
  readonly page: PageRequest;
}

/** Users of every company; every read that takes a companyId filters by it (null only for super-wide reads). */
export interface Users {
  findById(companyId: number | null, id: number): Promise<User | null>;
  findByEmail(email: string): Promise<User | null>;
  list(query: UserQuery): Promise<Page<User>>;
  listAll(companyId: number): Promise<User[]>;
  countByCompany(companyId: number): Promise<number>;
  /** When a user of each company last logged in; companies whose users never did are absent. */
  lastLoginByCompany(companyIds: readonly number[]): Promise<Map<number, Date>>;
  add(user: NewUser): Promise<User>;
  update(user: User): Promise<void>;
  remove(companyId: number, id: number): Promise<void>;
  /** Bumps the token version of every user of the company at once: their access tokens stop working (its deactivation). */
  bumpTokenVersionsOfCompany(companyId: number): Promise<void>;
  /** The ids of the queues the user belongs to, ascending (read of the queues' memberships, for ticket visibility). */
  queueIdsOf(companyId: number, userId: number): Promise<number[]>;
}

export interface RefreshSession {
  id: string;
  userId: number;
  companyId: number;
  /** The id of the only refresh token of this session that may still be used. */
  currentJti: string;
  /**
   * The token id rotated away last and when: for a short grace after `rotatedAt` it still yields the
   * current pair (two tabs refreshing at once) instead of counting as a replay.
   */
  previousJti: string | null;
  rotatedAt: Date | null;
  expiresAt: Date;
  revokedAt: Date | null;
  createdAt: Date;
}

/** Refresh-token families: each login starts one, each refresh rotates it. */
export interface RefreshSessions {
  create(session: RefreshSession): Promise<void>;
  find(id: string): Promise<RefreshSession | null>;
  /**
   * Compare-and-set: moves `fromJti` to `toJti` only if `fromJti` is still current and not revoked,
   * and remembers `fromJti` as the previous token id, rotated `at`.
   */
  rotate(id: string, fromJti: string, toJti: string, expiresAt: Date, at: Date): Promise<boolean>;
  revoke(id: string, at: Date): Promise<void>;
  revokeAllOfUser(userId: number, at: Date): Promise<void>;
  revokeAllOfCompany(companyId: number, at: Date): Promise<void>;
}

export interface AccessClaims {
  readonly userId: number;
  readonly companyId: number;
  readonly profile: Profile;
  readonly tokenVersion: number;
}

export interface RefreshClaims {
  readonly userId: number;
  readonly sessionId: string;
  readonly jti: string;
  readonly tokenVersion: number;
}

/**
 * Signs and verifies the platform's tokens. Verification failures throw UnauthorizedError.
 * Issuing the same claims with the same `issuedAt` gives the same token (the refresh grace re-issues
 * the pair of a rotation rather than storing it).
 */
export interface Tokens {
  readonly refreshLifetimeSeconds: number;
  issueAccess(claims: AccessClaims, issuedAt?: Date): Promise<string>;
  verifyAccess(token: string): Promise<AccessClaims>;
  issueRefresh(claims: RefreshClaims, issuedAt?: Date): Promise<string>;
  verifyRefresh(token: string): Promise<RefreshClaims>;
}
