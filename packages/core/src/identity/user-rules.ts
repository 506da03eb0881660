import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.js';
import { isEmail, normalizeEmail } from '../shared/text.js';
import type { Users } from './ports.js';
import { isSuper, outranksOrEquals, type Actor, type Profile } from '../shared/actor.js';
import type { User } from './user.js';

export const MIN_PASSWORD_LENGTH = 8;

export const MAX_PASSWORD_LENGTH = 128;

export function assertPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw new ValidationError('ERR_PASSWORD_TOO_SHORT');
  if (password.length > MAX_PASSWORD_LENGTH) throw new ValidationError('ERR_PASSWORD_TOO_LONG');
}

export function assertName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 2 || trimmed.length > 120) throw new ValidationError('ERR_INVALID_NAME');
  return trimmed;
}

/** Normalizes the e-mail and makes sure no other user holds it (e-mails are global: they are the login). */
export async function assertFreeEmail(users: Users, email: string, exceptUserId?: number): Promise<string> {
  const normalized = normalizeEmail(email);
  if (!isEmail(normalized)) throw new ValidationError('ERR_INVALID_EMAIL');
  const holder = await users.findByEmail(normalized);
  if (holder && holder.id !== exceptUserId) throw new ConflictError('ERR_EMAIL_ALREADY_EXISTS');
  return normalized;
}

/** Nobody hands out more power than they hold. */
export function assertMayGrant(actor: Actor, profile: Profile): void {
  if (!outranksOrEquals(actor.profile, profile)) throw new ForbiddenError('ERR_NO_PERMISSION');
}

/** The user the actor may see: same company, or any company for super users. 404 otherwise. */
export async function visibleUser(users: Users, actor: Actor, userId: number): Promise<User> {
  const user = await users.findById(isSuper(actor) ? null : actor.companyId, userId);
  if (!user) throw new NotFoundError('ERR_NO_USER_FOUND');
  return user;
}
