import { OBJSTORE_PROVIDERS } from '@servicedesk/core/objstore/objstore-config';
import { z } from 'zod';

/** What the object-store routes answer (packages/core/src/objstore): configs with their secret write-only, and the connection test. */

const timestamp = z.iso.datetime();

const CONFIG_EXAMPLE = {
  id: 3,
  companyId: 1,
  name: 'Media on R2',
  provider: 'r2' as const,
  endpoint: 'https://0123456789abcdef.r2.cloudflarestorage.com',
  region: 'auto',
  bucket: 'desk-media',
  prefix: 'loja-exemplo',
  forcePathStyle: false,
  publicBaseUrl: 'https://media.loja-exemplo.com.br',
  accessKeyId: 'a1b2c3d4e5f6',
  hasSecret: true,
  secretLast4: 'x9Qe',
  active: true,
  createdAt: '2025-11-27T18:00:00.000Z',
  updatedAt: '2025-11-27T18:00:00.000Z',
};

export const objstoreConfigSchema = z
  .object({
    id: z.number().int().positive(),
    companyId: z.number().int().positive(),
    name: z.string(),
    provider: z
      .enum(OBJSTORE_PROVIDERS)
      .meta({ description: '`s3` (AWS), `minio`, `r2` (Cloudflare), `wasabi`, `spaces` (DigitalOcean) or `other` S3-compatible service' }),
    endpoint: z.string().meta({ description: "The service's origin, `https://host[:port]`" }),
    region: z.string(),
    bucket: z.string(),
    prefix: z.string().meta({ description: "Objects are stored as `<prefix>/<key>`; empty: at the bucket's root" }),
    forcePathStyle: z.boolean().meta({ description: 'Requests go to `<endpoint>/<bucket>/…` (path style) rather than `<bucket>.<host>/…`' }),
    publicBaseUrl: z
      .string()
      .nullable()
      .meta({ description: 'A CDN or public domain serving the bucket: public files are redirected there; null: the backend serves them' }),
    accessKeyId: z.string(),
    hasSecret: z.boolean().meta({ description: 'A secret access key is stored (it is never shown)' }),
    secretLast4: z.string().nullable().meta({ description: "The secret's last four characters (null for a short one)" }),
    active: z.boolean().meta({ description: 'New uploads of the company go here; at most one config of a company is active' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({
    id: 'ObjstoreConfig',
    description: 'A bucket of an S3-compatible service where the company keeps its uploads; the secret is write-only',
    example: CONFIG_EXAMPLE,
  });

export const objstoreConfigListSchema = z
  .array(objstoreConfigSchema)
  .meta({ id: 'ObjstoreConfigList', description: "The company's object-store configs, by name", example: [CONFIG_EXAMPLE] });

export const connectionTestSchema = z
  .object({
    ok: z.literal(true),
    latencyMs: z.number().int().nonnegative().meta({ description: 'How long the write, read and delete took together' }),
    canWrite: z.literal(true),
    canRead: z.literal(true),
    canDelete: z.literal(true),
  })
  .meta({
    id: 'ObjstoreConnectionTest',
    description: 'The bucket took a probe object, gave it back and deleted it',
    example: { ok: true, latencyMs: 184, canWrite: true, canRead: true, canDelete: true },
  });
