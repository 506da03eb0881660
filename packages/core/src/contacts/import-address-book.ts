import type { Actor } from '../shared/actor.js';
import type { ChannelQueries } from '../connections/check-number.js';
import type { Connections } from '../connections/ports.js';
import { connectionToAsk } from './contact-profile.js';
import type { ContactImportStatus, StartContactImport } from './import-contacts.js';

/**
 * `POST /contacts/import`: the address book of the connection's account (asked through the
 * channel runtime, which needs a live session) imported like a file: merged by number, in the
 * background, with the same progress events and report.
 */
export class ImportAddressBook {
  constructor(private readonly deps: { connections: Connections; queries: ChannelQueries; start: StartContactImport }) {}

  async execute(input: { actor: Actor; connectionId?: number }): Promise<ContactImportStatus> {
    const connection = await connectionToAsk(this.deps.connections, input.actor.companyId, input.connectionId);
    const book = await this.deps.queries.contacts(connection);
    const rows = book.map((entry, i) => ({ row: i + 1, name: entry.name, number: entry.number }));
    return this.deps.start.execute({ actor: input.actor, rows, source: 'addressBook', fileName: connection.name });
  }
}
