import { existsSync } from 'node:fs';
import { expect } from 'chai';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { openDatabase, unixSocketOf } from '../src/index.js';

/** Debian's default directory of the server's socket (the CI machine's PostgreSQL is Debian's). */
const SOCKET_DIR = '/var/run/postgresql';

describe('PostgreSQL over its Unix socket', () => {
  it('reads the socket directory the libpq way, or percent-encoded as the host; a network host is no socket', () => {
    expect(unixSocketOf('postgres://app@localhost/desk?host=/var/run/postgresql')).to.deep.equal({ host: '/var/run/postgresql', port: 5432 });
    expect(unixSocketOf('postgres://app@%2Ftmp%2Fpg:5433/desk')).to.deep.equal({ host: '/tmp/pg', port: 5433 });
    expect(unixSocketOf('postgres://app@127.0.0.1:5432/desk')).to.equal(null);
    expect(unixSocketOf('not a url')).to.equal(null);
  });

  it('opens the database through the socket: the server sees a local connection, with no network address', async function () {
    const tcp = integrationUrl('TEST_DATABASE_URL');
    if (!tcp || !existsSync(`${SOCKET_DIR}/.s.PGSQL.${new URL(tcp).port || 5432}`)) return this.skip();
    const url = new URL(tcp);
    url.searchParams.set('host', SOCKET_DIR);
    const db = await openDatabase({ url: url.toString() });
    try {
      const [row] = await db.orm.em.getConnection().execute<Array<{ addr: string | null; one: number }>>('select inet_server_addr() as addr, 1 as one');
      expect(row).to.deep.equal({ addr: null, one: 1 });
    } finally {
      await db.close();
    }
  });
});
