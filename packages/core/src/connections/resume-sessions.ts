import type { Transaction } from '../shared/ports.js';
import type { Companies } from '../tenancy/ports.js';
import type { Connections } from './ports.js';
import type { SessionCommands } from './session-commands.js';

/**
 * After the backend or a channel runtime (re)starts, every connection that was not logged out
 * gets a `start` command again, so sessions come back without an operator touching them.
 * Connections an operator logged out (`DISCONNECTED`) stay down. These starts are marked
 * `resume`: a runtime instance already holding the session as described keeps it running.
 */
export class ResumeSessions {
  constructor(private readonly deps: { companies: Companies; connections: Connections; sessions: SessionCommands; tx: Transaction }) {}

  async execute(): Promise<number> {
    const { companies, connections, sessions, tx } = this.deps;
    let resumed = 0;
    for (const company of await companies.listAll()) {
      if (!company.status) continue;
      const n = await tx.run(async () => {
        const live = (await connections.list(company.id)).filter((c) => c.status !== 'DISCONNECTED');
        for (const connection of live) await sessions.enqueue(connection, 'start', { resume: true });
        return live.length;
      });
      resumed += n;
    }
    return resumed;
  }
}
