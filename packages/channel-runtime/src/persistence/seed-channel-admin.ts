import { UniqueConstraintViolationException, type MikroORM } from '@mikro-orm/core';
import { hash } from '@node-rs/argon2';
import { ChannelAdminSchema } from './channel-schemas.js';

/** The same built-in default as the backend's admin; it must be changed at first login. */
export const DEFAULT_CHANNEL_ADMIN_PASSWORD = '123456';
export const DEFAULT_CHANNEL_ADMIN_EMAIL = 'admin@channel.local';

export interface ChannelAdminSeed {
  readonly email: string;
  readonly password: string;
  /** When the built-in default is used, the admin must change it at first login. */
  readonly passwordIsDefault: boolean;
}

/** The seed from `CHANNEL_ADMIN_EMAIL` / `CHANNEL_ADMIN_PASSWORD`, with the built-in defaults. */
export function channelAdminSeedFromEnv(env: Record<string, string | undefined> = process.env): ChannelAdminSeed {
  return {
    email: env.CHANNEL_ADMIN_EMAIL || DEFAULT_CHANNEL_ADMIN_EMAIL,
    password: env.CHANNEL_ADMIN_PASSWORD || DEFAULT_CHANNEL_ADMIN_PASSWORD,
    passwordIsDefault: !env.CHANNEL_ADMIN_PASSWORD,
  };
}

/**
 * Creates the channel component's admin unless one with that email exists. Idempotent: an
 * existing admin (and a password it has since changed) is left alone, and a concurrent seeder
 * losing the race on the unique email counts as "already there".
 */
export async function seedChannelAdmin(db: { orm: MikroORM }, seed: ChannelAdminSeed): Promise<{ id: number; created: boolean }> {
  const email = seed.email.trim().toLowerCase();
  const em = db.orm.em.fork();
  const existing = await em.findOne(ChannelAdminSchema, { email });
  if (existing) return { id: existing.id, created: false };
  const now = new Date();
  try {
    const id = await em.insert(ChannelAdminSchema, {
      email,
      passwordHash: await hash(seed.password),
      mustChangePassword: seed.passwordIsDefault,
      createdAt: now,
      updatedAt: now,
    });
    return { id: Number(id), created: true };
  } catch (err) {
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
    const winner = await em.fork().findOneOrFail(ChannelAdminSchema, { email });
    return { id: winner.id, created: false };
  }
}
