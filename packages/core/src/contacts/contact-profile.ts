import type { Actor } from '../shared/actor.js';
import type { ChannelQueries } from '../connections/check-number.js';
import type { Connection } from '../connections/connection.js';
import type { Connections } from '../connections/ports.js';
import type { Contacts } from './ports.js';
import { NotFoundError } from '../shared/errors.js';
import type { Clock } from '../shared/ports.js';
import { cleanContactNumber } from './contact-rules.js';
import { publishContact, toContactView, type ContactView } from './contact-view.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { ContactEvent } from './contact-events.js';

/**
 * The connection to ask: the given one of the company (404 `ERR_NO_CONNECTION_FOUND`), else the
 * default one, else the first connected chat-application session (404 `ERR_NO_DEFAULT_CONNECTION`).
 */
export async function connectionToAsk(connections: Connections, companyId: number, connectionId?: number): Promise<Connection> {
  if (connectionId !== undefined) {
    const given = await connections.findById(companyId, connectionId);
    if (!given) throw new NotFoundError('ERR_NO_CONNECTION_FOUND');
    return given;
  }
  const all = await connections.list(companyId);
  const chosen = all.find((c) => c.isDefault) ?? all.find((c) => c.kind === 'chatapp' && c.status === 'CONNECTED');
  if (!chosen) throw new NotFoundError('ERR_NO_DEFAULT_CONNECTION');
  return chosen;
}

export interface ContactProfileResult {
  readonly number: string;
  readonly name: string | null;
  /** The picture the provider gave (the lineage's name). */
  readonly urlPicture: string | null;
  /** The id of the company's contact the number reaches, null when none (the lineage client creates one then). */
  readonly contactId: number | null;
  /** The company's contact the number reaches, if any (its picture refreshed from the answer). */
  readonly contact: ContactView | null;
}

/** `GET /contacts/profile/:number`: asks the connection's provider for the number's public name and picture. */
export class GetContactProfile {
  constructor(
    private readonly deps: { connections: Connections; contacts: Contacts; queries: ChannelQueries; realtime: RealtimeEvents<ContactEvent>; clock: Clock },
  ) {}

  async execute(input: { actor: Actor; number: string; connectionId?: number }): Promise<ContactProfileResult> {
    const { connections, contacts, queries, realtime, clock } = this.deps;
    const companyId = input.actor.companyId;
    const number = cleanContactNumber(input.number);
    const connection = await connectionToAsk(connections, companyId, input.connectionId);
    const profile = await queries.profile(connection, number);
    let contact = await contacts.findByNumber(companyId, number);
    if (contact && profile.profilePicUrl && profile.profilePicUrl !== contact.profilePicUrl) {
      contact = { ...contact, profilePicUrl: profile.profilePicUrl, updatedAt: clock.now() };
      await contacts.update(contact);
      await publishContact(realtime, contact, 'update');
    }
    return { number, name: profile.name, urlPicture: profile.profilePicUrl, contactId: contact?.id ?? null, contact: contact ? toContactView(contact) : null };
  }
}
