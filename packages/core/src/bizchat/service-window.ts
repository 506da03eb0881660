import type { Connection } from '../connections/connection.js';
import { ValidationError } from '../shared/errors.js';

/** Meta's customer-service window: free-form messages only within 24 hours of the contact's last message. */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** When a contact last wrote to a connection. */
export interface ServiceWindows {
  lastInboundAt(companyId: number, connectionId: number, contactId: number): Promise<Date | null>;
}

/**
 * The one check of every free-form send (operators and the message API): on a bizchat connection
 * the contact must have written within the window, else only an approved template may go (422).
 * Other connections have no window.
 */
export async function assertServiceWindow(
  windows: ServiceWindows,
  connection: Pick<Connection, 'id' | 'companyId' | 'kind'>,
  contactId: number,
  now: Date,
): Promise<void> {
  if (connection.kind !== 'bizchat') return;
  const last = await windows.lastInboundAt(connection.companyId, connection.id, contactId);
  if (!last || now.getTime() - last.getTime() > SERVICE_WINDOW_MS) throw new ValidationError('ERR_BIZCHAT_WINDOW_CLOSED');
}
