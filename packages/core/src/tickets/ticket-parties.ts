import type { Connection } from '../connections/connection.js';
import type { Connections } from '../connections/ports.js';
import type { Contact } from '../contacts/contact.js';
import type { Contacts } from '../contacts/ports.js';
import { NotFoundError } from '../shared/errors.js';

/** Who a new conversation is between: a contact of the company, on one of its connections. */
export class TicketParties {
  constructor(private readonly deps: { readonly contacts: Pick<Contacts, 'findById'>; readonly connections: Pick<Connections, 'findById' | 'list'> }) {}

  /**
   * The contact (404 `ERR_NO_CONTACT_FOUND`), then the connection: the one named (404
   * `ERR_NO_CONNECTION_FOUND`), else the company's default (404 `ERR_NO_DEFAULT_CONNECTION`).
   */
  async of(companyId: number, contactId: number, connectionId: number | undefined): Promise<{ contact: Contact; connection: Connection }> {
    const contact = await this.deps.contacts.findById(companyId, contactId);
    if (!contact) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
    return { contact, connection: await this.connectionOf(companyId, connectionId) };
  }

  private async connectionOf(companyId: number, connectionId: number | undefined): Promise<Connection> {
    if (connectionId !== undefined) {
      const connection = await this.deps.connections.findById(companyId, connectionId);
      if (!connection) throw new NotFoundError('ERR_NO_CONNECTION_FOUND');
      return connection;
    }
    const fallback = (await this.deps.connections.list(companyId)).find((c) => c.isDefault);
    if (!fallback) throw new NotFoundError('ERR_NO_DEFAULT_CONNECTION');
    return fallback;
  }
}
