import { ConflictError, type ChannelQueries, type Connection } from '@servicedesk/core';
import type { ChannelRuntime } from './channel-runtime.js';

/** Number checks answered by a runtime in the same process (the embedded default). */
export class RuntimeChannelQueries implements ChannelQueries {
  constructor(private readonly runtime: ChannelRuntime) {}

  async checkNumber(connection: Connection, number: string) {
    const session = this.runtime.session(connection.id);
    if (!session || session.status() !== 'CONNECTED') throw new ConflictError('ERR_SESSION_NOT_CONNECTED');
    return session.checkNumber(number);
  }
}
