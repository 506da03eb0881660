import { EntitySchema, type MikroORM } from '@mikro-orm/core';
import type { PasswordReset, PasswordResets } from '@servicedesk/core';
import { foreignKeysOf } from '../shared/columns.js';
import { MikroOrmRepository } from '../shared/context.js';

type Row = Record<string, unknown>;

/** As m0039 creates `password_resets`. */
export const PasswordResetSchema = new EntitySchema<PasswordReset>({
  name: 'PasswordReset',
  tableName: 'password_resets',
  properties: {
    userId: foreignKeysOf('password_resets')('user_id', 'User', 'cascade', { primary: true }),
    tokenDigest: { type: 'string', length: 128, unique: 'password_resets_token_digest_key' },
    expiresAt: { type: 'Date', index: 'password_resets_expires_at_idx' },
    createdAt: { type: 'Date' },
  },
});

const toReset = (r: Row): PasswordReset => ({
  userId: Number(r.user_id),
  tokenDigest: String(r.token_digest),
  expiresAt: new Date(r.expires_at as Date | string),
  createdAt: new Date(r.created_at as Date | string),
});

/**
 * The pending resets, one row per user: `replace` is an upsert on the user, and `take` a
 * `delete … returning`, so two uses of one token cannot both get its row.
 */
export class MikroOrmPasswordResets extends MikroOrmRepository implements PasswordResets {
  async replace(reset: PasswordReset) {
    await this.em.execute(
      `insert into password_resets (user_id, token_digest, expires_at, created_at) values (?, ?, ?, ?)
       on conflict (user_id) do update set token_digest = excluded.token_digest, expires_at = excluded.expires_at, created_at = excluded.created_at`,
      [reset.userId, reset.tokenDigest, reset.expiresAt, reset.createdAt],
    );
  }

  async take(tokenDigest: string) {
    const [row] = await this.em.execute<Row[]>('delete from password_resets where token_digest = ? returning *', [tokenDigest]);
    return row ? toReset(row) : null;
  }

  async removeExpired(now: Date) {
    return (await this.em.execute<Row[]>('delete from password_resets where expires_at < ? returning user_id', [now])).length;
  }
}

export const passwordResetsRepositories = (orm: MikroORM) => ({ passwordResets: new MikroOrmPasswordResets(orm) });
