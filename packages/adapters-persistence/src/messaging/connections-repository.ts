import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { ConflictError, type Connection, type Connections, type NewConnection } from '@servicedesk/core';
import { ConnectionSchema } from './schema.js';
import { MikroOrmRepository } from '../shared/context.js';
import { READ } from './message-rows.js';

export class MikroOrmConnections extends MikroOrmRepository implements Connections {
  async findById(companyId: number | null, id: number) {
    return this.em.findOne(ConnectionSchema, companyId === null ? { id } : { id, companyId }, READ);
  }
  async findByTokenDigest(digest: string) {
    return this.em.findOne(ConnectionSchema, { tokenDigest: digest }, READ);
  }
  async findByExternalId(externalId: string, kind: 'socialnet' | 'bizchat' = 'socialnet') {
    return this.em.findOne(ConnectionSchema, { kind, externalId }, { ...READ, orderBy: { id: 'asc' } });
  }
  async list(companyId: number) {
    return this.em.find(ConnectionSchema, { companyId }, { ...READ, orderBy: { id: 'asc' } });
  }
  async countByCompany(companyId: number) {
    return this.em.count(ConnectionSchema, { companyId });
  }
  async add(connection: NewConnection): Promise<Connection> {
    const id = (await tokenUnique(() => this.em.insert(ConnectionSchema, { ...connection } as Connection))) as number;
    return { ...connection, id };
  }
  async update(connection: Connection) {
    const { id, companyId, ...fields } = connection;
    await tokenUnique(() => this.em.nativeUpdate(ConnectionSchema, { id, companyId }, fields));
  }
  async remove(companyId: number, id: number) {
    await this.em.nativeDelete(ConnectionSchema, { id, companyId });
  }
}

/** Two connections saving the same token (or page id, or phone-number id) at once: the unique index decides, as a 409 like the use case's check. */
async function tokenUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    // By the constraint's name: the message also quotes the statement, which names every column.
    if (err instanceof UniqueConstraintViolationException && /connections_external_id_key/.test(err.message)) throw new ConflictError('ERR_PAGE_IN_USE');
    if (err instanceof UniqueConstraintViolationException && /connections_bizchat_number_key/.test(err.message))
      throw new ConflictError('ERR_BIZCHAT_NUMBER_IN_USE');
    if (err instanceof UniqueConstraintViolationException && /token_digest/.test(err.message)) throw new ConflictError('ERR_TOKEN_IN_USE');
    throw err;
  }
}
