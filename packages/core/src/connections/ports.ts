import type { Connection, NewConnection } from './connection.js';

export interface Connections {
  findById(companyId: number | null, id: number): Promise<Connection | null>;
  findByTokenDigest(digest: string): Promise<Connection | null>;
  /** The social-network connection of a page or account id at the provider. */
  findByExternalId(externalId: string): Promise<Connection | null>;
  list(companyId: number): Promise<Connection[]>;
  countByCompany(companyId: number): Promise<number>;
  add(connection: NewConnection): Promise<Connection>;
  update(connection: Connection): Promise<void>;
  remove(companyId: number, id: number): Promise<void>;
}
