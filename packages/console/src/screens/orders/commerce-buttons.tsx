import type { Schema } from '../../api/client.js';
import { ContactOrdersButton } from './contact-orders.js';
import { NewOrderButton } from './new-order.js';
import { SendCatalogButton } from '../catalog/send-catalog.js';
import '../catalog/catalog.css';
import './orders.css';

type Ticket = Schema<'TicketDetails'>;

/** A conversation's catalog and order actions (a new order, the contact's orders): the catalog only while it is not closed (the server refuses a send to a closed one). */
export function CommerceButtons({ ticket }: { ticket: Ticket }) {
  return (
    <>
      {ticket.status !== 'closed' && <SendCatalogButton ticketId={ticket.id} />}
      <NewOrderButton ticket={ticket} />
      <ContactOrdersButton ticket={ticket} />
    </>
  );
}
