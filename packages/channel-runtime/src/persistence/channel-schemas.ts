import { EntitySchema } from '@mikro-orm/core';

/** The channel component's own administrator (its admin UI and API), not a backend user. */
export interface ChannelAdmin {
  id: number;
  email: string;
  passwordHash: string;
  mustChangePassword: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** One serialized piece of a connection's Baileys session: `creds`, or a signal key `<type>-<id>`. */
export interface AuthStateRow {
  connectionId: number;
  key: string;
  value: unknown;
  updatedAt: Date;
}

export const ChannelAdminSchema = new EntitySchema<ChannelAdmin>({
  name: 'ChannelAdmin',
  tableName: 'admins',
  schema: 'channel',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    email: { type: 'string', unique: true },
    passwordHash: { type: 'string', columnType: 'text' },
    mustChangePassword: { type: 'boolean' },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});

export const AuthStateRowSchema = new EntitySchema<AuthStateRow>({
  name: 'AuthStateRow',
  tableName: 'auth_state',
  schema: 'channel',
  properties: {
    connectionId: { type: 'number', primary: true },
    key: { type: 'string', primary: true, length: 300 },
    value: { type: 'json', columnType: 'jsonb' },
    updatedAt: { type: 'Date' },
  },
});

export const CHANNEL_SCHEMAS = [ChannelAdminSchema, AuthStateRowSchema];
