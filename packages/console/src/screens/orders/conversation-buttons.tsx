import { lazy, Suspense } from 'react';
import type { Schema } from '../../api/client.js';

type Ticket = Schema<'TicketDetails'>;

const Buttons = lazy(() => import('./commerce-buttons.js').then((m) => ({ default: m.CommerceButtons })));

/**
 * The conversation header's "Send the catalog" and "New order": loaded when a conversation first
 * shows, so the inbox's first page does not carry the catalog's and orders' code.
 */
export function ConversationCommerce({ ticket }: { ticket: Ticket }) {
  return (
    <Suspense fallback={null}>
      <Buttons ticket={ticket} />
    </Suspense>
  );
}
