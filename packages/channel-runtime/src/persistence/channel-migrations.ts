import { M0001ChannelFoundation } from './migrations/m0001-channel-foundation.js';
import { M0002SandboxLedger } from './migrations/m0002-sandbox-ledger.js';
import { M0003SessionOwnership } from './migrations/m0003-session-ownership.js';

/** Applied in this order; never edit a released migration, add the next one. */
export const CHANNEL_MIGRATIONS = [
  { name: 'm0001-channel-foundation', class: M0001ChannelFoundation },
  { name: 'm0002-sandbox-ledger', class: M0002SandboxLedger },
  { name: 'm0003-session-ownership', class: M0003SessionOwnership },
];

/**
 * The channel component's migration history, kept inside its own schema so that it never mixes
 * with the backend's `public.mikro_orm_migrations` (nor is emptied by anything that truncates `public`).
 */
export const CHANNEL_MIGRATIONS_TABLE = 'channel.channel_migrations';
