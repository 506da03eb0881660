import { EntitySchema } from '@mikro-orm/core';
import { PROXY_PROTOCOLS, PROXY_STATUSES, type Proxy, type ProxyAssignment } from '@servicedesk/core/proxies/proxy';
import { foreignKeysOf } from '../shared/columns.js';

const proxies = foreignKeysOf('proxies');

/** As m0024 creates `proxies`, with m0035's `unchecked` status. */
export const ProxySchema = new EntitySchema<Proxy>({
  name: 'Proxy',
  tableName: 'proxies',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: proxies('company_id', 'Company', 'cascade', { nullable: true }),
    name: { type: 'string', length: 100 },
    protocol: { type: 'string', enum: true, items: [...PROXY_PROTOCOLS], columnType: 'varchar(10)' },
    host: { type: 'string', length: 253 },
    port: { type: 'integer' },
    username: { type: 'string', length: 255, nullable: true },
    passwordSealed: { type: 'text', nullable: true },
    country: { type: 'string', length: 2, nullable: true },
    maxConnections: { type: 'integer' },
    status: { type: 'string', enum: true, items: [...PROXY_STATUSES], columnType: 'varchar(10)' },
    disabledReason: { type: 'string', length: 500, nullable: true },
    failCount: { type: 'integer', default: 0 },
    lastError: { type: 'string', length: 500, nullable: true },
    lastLatencyMs: { type: 'integer', nullable: true },
    lastCheckAt: { type: 'Date', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  checks: [
    { name: 'proxies_port_check', property: 'port', expression: '(port >= 1) AND (port <= 65535)' },
    { name: 'proxies_max_connections_check', property: 'maxConnections', expression: '(max_connections >= 1) AND (max_connections <= 1000)' },
  ],
  indexes: [{ name: 'proxies_company_id_idx', properties: ['companyId'] }],
});

const assignments = foreignKeysOf('proxy_assignments');

/** As m0024 creates `proxy_assignments`. */
export const ProxyAssignmentSchema = new EntitySchema<ProxyAssignment>({
  name: 'ProxyAssignment',
  tableName: 'proxy_assignments',
  properties: {
    connectionId: assignments('connection_id', 'Connection', 'cascade', { primary: true }),
    companyId: assignments('company_id', 'Company', 'cascade'),
    proxyId: assignments('proxy_id', 'Proxy', 'cascade'),
    assignedAt: { type: 'Date' },
  },
  indexes: [
    { name: 'proxy_assignments_proxy_id_idx', properties: ['proxyId'] },
    { name: 'proxy_assignments_company_id_idx', properties: ['companyId'] },
  ],
});

export const PROXY_SCHEMAS = [ProxySchema, ProxyAssignmentSchema];
