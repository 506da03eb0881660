import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { OBJSTORE_PROVIDERS, type ObjstoreConfig } from '@servicedesk/core/objstore/objstore-config';
import type { BlobLocation } from '@servicedesk/core/objstore/ports';
import { foreignKeysOf } from '../shared/columns.js';

const configs = foreignKeysOf('objstore_configs');

/** As m0028 creates `objstore_configs`: at most one active row per company (a partial unique index). */
export const ObjstoreConfigSchema = new EntitySchema<ObjstoreConfig>({
  name: 'ObjstoreConfig',
  tableName: 'objstore_configs',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: configs('company_id', 'Company', 'cascade'),
    name: { type: 'string', length: 100 },
    provider: { type: 'string', enum: true, items: [...OBJSTORE_PROVIDERS], columnType: 'varchar(10)' },
    endpoint: { type: 'string', length: 500 },
    region: { type: 'string', length: 50 },
    bucket: { type: 'string', length: 63 },
    prefix: { type: 'string', length: 200, default: '' },
    forcePathStyle: { type: 'boolean', default: false },
    publicBaseUrl: { type: 'string', length: 500, nullable: true },
    accessKeyId: { type: 'string', length: 128 },
    secretSealed: { type: 'text' },
    secretHint: { type: 'string', length: 4, nullable: true },
    active: { type: 'boolean', default: false },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  uniques: [
    {
      name: 'objstore_configs_one_active_idx',
      expression: 'create unique index objstore_configs_one_active_idx on objstore_configs (company_id) where active',
    },
  ],
  indexes: [{ name: 'objstore_configs_company_id_idx', properties: ['companyId'] }],
});

const locations = foreignKeysOf('blob_locations');

/** As m0028 creates `blob_locations`: a config holding blobs cannot be deleted (no action). */
export const BlobLocationSchema = new EntitySchema<BlobLocation>({
  name: 'BlobLocation',
  tableName: 'blob_locations',
  properties: {
    key: { type: 'string', length: 1024, primary: true, fieldName: 'blob_key' },
    companyId: locations('company_id', 'Company', 'cascade'),
    configId: locations('config_id', 'ObjstoreConfig', 'no action'),
    size: { type: new BigIntType('number') },
    createdAt: { type: 'Date' },
  },
  indexes: [
    { name: 'blob_locations_company_config_idx', properties: ['companyId', 'configId'] },
    { name: 'blob_locations_config_id_idx', properties: ['configId'] },
  ],
});

/** The tables of the object-store feature. */
export const OBJSTORE_SCHEMAS = [ObjstoreConfigSchema, BlobLocationSchema];
