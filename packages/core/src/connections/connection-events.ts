import type { RealtimeEventOf } from '../realtime/ports.js';
import type { ConnectionView } from './connection.js';

/**
 * `company-<id>-chatapp` (the lineage's `-whatsapp`, under the naming rule): a connection was
 * created or changed (both `update`), or removed.
 */
export type ConnectionEvent = RealtimeEventOf<
  'chatapp',
  { readonly action: 'update'; readonly chatapp: ConnectionView } | { readonly action: 'delete'; readonly chatappId: number }
>;

/** `company-<id>-chatappSession`: a connection's session status (and QR code) changed. */
export type SessionEvent = RealtimeEventOf<'chatappSession', { readonly action: 'update'; readonly session: ConnectionView }>;
