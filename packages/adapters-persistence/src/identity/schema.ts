import { EntitySchema } from '@mikro-orm/core';
import type { RefreshSession, User } from '@servicedesk/core';
import { foreignKeysOf } from '../shared/columns.js';

const users = foreignKeysOf('users');

/** As m0001 creates `users`, with m0013's default connection and operator flags. */
export const UserSchema = new EntitySchema<User>({
  name: 'User',
  tableName: 'users',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: users('company_id', 'Company', 'cascade'),
    name: { type: 'string', length: 120 },
    email: { type: 'string', length: 254, unique: 'users_email_key' },
    passwordHash: { type: 'string', columnType: 'text' },
    profile: { type: 'string', enum: true, items: ['user', 'admin', 'super'], columnType: 'varchar(10)' },
    tokenVersion: { type: 'number', default: 0 },
    mustChangePassword: { type: 'boolean', default: false },
    online: { type: 'boolean', default: false },
    profileImage: { type: 'string', columnType: 'text', nullable: true },
    allTicket: { type: 'string', length: 10, default: 'disable' },
    defaultTicketsManagerWidth: { type: 'number', default: 550 },
    defaultTheme: { type: 'string', length: 10, default: 'light' },
    defaultMenu: { type: 'string', length: 10, default: 'open' },
    startWork: { type: 'string', length: 5, nullable: true },
    endWork: { type: 'string', length: 5, nullable: true },
    farewellMessage: { type: 'string', columnType: 'text', nullable: true },
    chatappId: users('chatapp_id', 'Connection', 'set null', { nullable: true }),
    allHistoric: { type: 'string', length: 10, default: 'disabled' },
    allUserChat: { type: 'string', length: 10, default: 'disabled' },
    userClosePendingTicket: { type: 'string', length: 10, default: 'enabled' },
    showDashboard: { type: 'string', length: 10, default: 'disabled' },
    allowRealTime: { type: 'string', length: 10, default: 'disabled' },
    allowConnections: { type: 'string', length: 10, default: 'disabled' },
    allowGroup: { type: 'boolean', default: false },
    lastLoginAt: { type: 'Date', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  indexes: [
    { name: 'users_company_id_name_idx', properties: ['companyId', 'name'] },
    { name: 'users_chatapp_id_idx', properties: ['chatappId'] },
  ],
});

const refreshSessions = foreignKeysOf('refresh_sessions');

/** As m0001 creates `refresh_sessions`, with m0010's rotation memory (`previous_jti`, `rotated_at`) and company index. */
export const RefreshSessionSchema = new EntitySchema<RefreshSession>({
  name: 'RefreshSession',
  tableName: 'refresh_sessions',
  properties: {
    id: { type: 'uuid', primary: true },
    userId: refreshSessions('user_id', 'User', 'cascade'),
    companyId: refreshSessions('company_id', 'Company', 'cascade'),
    currentJti: { type: 'uuid' },
    previousJti: { type: 'uuid', nullable: true },
    rotatedAt: { type: 'Date', nullable: true },
    expiresAt: { type: 'Date' },
    revokedAt: { type: 'Date', nullable: true },
    createdAt: { type: 'Date' },
  },
  indexes: [
    { name: 'refresh_sessions_user_id_idx', properties: ['userId'] },
    { name: 'refresh_sessions_company_id_idx', properties: ['companyId'] },
  ],
});
