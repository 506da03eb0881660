/**
 * The verified caller of every use case and the profile rules all features share: who may act
 * as an admin or a super user. Kept below every feature folder, since every feature checks it.
 */
import { ForbiddenError } from './errors.js';

export type Profile = 'user' | 'admin' | 'super';

export const PROFILES: readonly Profile[] = ['user', 'admin', 'super'];

const RANK: Record<Profile, number> = { user: 0, admin: 1, super: 2 };

/** True when `a` carries at least the powers of `b`. */
export function outranksOrEquals(a: Profile, b: Profile): boolean {
  return RANK[a] >= RANK[b];
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

export function assertAdmin(actor: Actor): void {
  if (actor.profile !== 'admin' && actor.profile !== 'super') throw new ForbiddenError('ERR_NO_PERMISSION');
}

export function assertSuper(actor: Actor): void {
  if (actor.profile !== 'super') throw new ForbiddenError('ERR_NO_PERMISSION');
}
