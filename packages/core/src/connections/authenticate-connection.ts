import { UnauthorizedError } from '../shared/errors.js';
import type { SecretDigester } from '../shared/ports.js';
import type { Connection } from './connection.js';
import type { Connections } from './ports.js';

/**
 * `tokenAuth`: the official message API's bearer token selects the sending connection (and so
 * the company). Tokens are stored only as keyed digests; an unknown token answers 401.
 */
export class AuthenticateConnection {
  constructor(private readonly deps: { connections: Pick<Connections, 'findByTokenDigest'>; digester: SecretDigester }) {}

  async execute(token: string | undefined): Promise<Connection> {
    if (!token || token.length > 512) throw new UnauthorizedError('ERR_INVALID_CONNECTION_TOKEN');
    const digest = this.deps.digester.digest(token);
    const connection = await this.deps.connections.findByTokenDigest(digest);
    if (!connection?.tokenDigest || !this.deps.digester.matches(token, connection.tokenDigest)) {
      throw new UnauthorizedError('ERR_INVALID_CONNECTION_TOKEN');
    }
    return connection;
  }
}
