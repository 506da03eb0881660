import { EntitySchema } from '@mikro-orm/core';
import type { RefreshSession, User } from '@servicedesk/core';

export const UserSchema = new EntitySchema<User>({
  name: 'User',
  tableName: 'users',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: { type: 'number' },
    name: { type: 'string' },
    email: { type: 'string', unique: true },
    passwordHash: { type: 'string', columnType: 'text' },
    profile: { type: 'string' },
    tokenVersion: { type: 'number' },
    mustChangePassword: { type: 'boolean' },
    online: { type: 'boolean' },
    profileImage: { type: 'string', columnType: 'text', nullable: true },
    allTicket: { type: 'string' },
    defaultTicketsManagerWidth: { type: 'number' },
    defaultTheme: { type: 'string' },
    defaultMenu: { type: 'string' },
    startWork: { type: 'string', nullable: true },
    endWork: { type: 'string', nullable: true },
    farewellMessage: { type: 'string', columnType: 'text', nullable: true },
    lastLoginAt: { type: 'Date', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});

export const RefreshSessionSchema = new EntitySchema<RefreshSession>({
  name: 'RefreshSession',
  tableName: 'refresh_sessions',
  properties: {
    id: { type: 'uuid', primary: true },
    userId: { type: 'number' },
    companyId: { type: 'number' },
    currentJti: { type: 'uuid' },
    expiresAt: { type: 'Date' },
    revokedAt: { type: 'Date', nullable: true },
    createdAt: { type: 'Date' },
  },
});
