import type { RealtimeEventOf } from '../realtime/ports.js';
import type { ConnectionView } from './connection.js';

/**
 * `company-<id>-whatsapp` (the lineage's name for connections): a connection was created or
 * changed (both `update`), or removed.
 */
export type ConnectionEvent = RealtimeEventOf<'whatsapp',
  | { readonly action: 'update'; readonly whatsapp: ConnectionView }
  | { readonly action: 'delete'; readonly whatsappId: number }>;

/** `company-<id>-whatsappSession`: a connection's session status (and QR code) changed. */
export type SessionEvent = RealtimeEventOf<'whatsappSession',
  | { readonly action: 'update'; readonly session: ConnectionView }>;
