import { ConflictError, type ChannelQueries, type Connection } from '@servicedesk/core';
import type { ChannelRuntime } from './channel-runtime.js';

/** Questions to the sessions of a runtime in the same process (the embedded default). */
export class RuntimeChannelQueries implements ChannelQueries {
  constructor(private readonly runtime: ChannelRuntime) {}

  async checkNumber(connection: Connection, number: string) {
    return this.live(connection).checkNumber(number);
  }

  async contacts(connection: Connection) {
    const session = this.live(connection);
    if (!session.contacts) throw new ConflictError('ERR_CONTACTS_NOT_SUPPORTED');
    return session.contacts();
  }

  async profile(connection: Connection, number: string) {
    const session = this.live(connection);
    return session.profile ? session.profile(number) : { name: null, profilePicUrl: null };
  }

  private live(connection: Connection) {
    const session = this.runtime.session(connection.id);
    if (!session || session.status() !== 'CONNECTED') throw new ConflictError('ERR_SESSION_NOT_CONNECTED');
    return session;
  }
}
