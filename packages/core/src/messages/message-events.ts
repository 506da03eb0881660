import type { RealtimeEventOf } from '../realtime/ports.js';
import type { MessageView } from './message-view.js';

/** A message changed (delivery status, edit, deletion): `appMessage`, action `update`. */
export interface MessageUpdated {
  readonly action: 'update';
  readonly message: MessageView;
}

/**
 * What `messages/` publishes. The whole `appMessage` entity (with `create`, which carries the
 * ticket) is `AppMessageEvent` in `tickets/`.
 */
export type MessageUpdateEvent = RealtimeEventOf<'appMessage', MessageUpdated>;
