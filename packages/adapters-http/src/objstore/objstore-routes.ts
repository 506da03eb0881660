import type { ObjstoreApi } from '@servicedesk/core/compose/objstore';
import type { ObjstoreConfigInput } from '@servicedesk/core/objstore/manage-objstore-configs';
import { OBJSTORE_PROVIDERS } from '@servicedesk/core/objstore/objstore-config';
import { z } from 'zod';
import { deletedSchema } from '../company-api/company-api-schemas.js';
import { route, type RouteError } from '../http/route.js';
import { id, idParam } from '../http/schemas.js';
import { connectionTestSchema, objstoreConfigListSchema, objstoreConfigSchema } from './objstore-schemas.js';

type ObjstoreApp = { readonly objstore: ObjstoreApi };

const TAG = 'Object storage';
const ADMIN_ONLY: RouteError = { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'Admins (and super users, in their own company) only' };
const NOT_FOUND: RouteError = { status: 404, codes: ['ERR_NO_OBJSTORE_CONFIG_FOUND'] };
const FIELD_ERRORS: RouteError = {
  status: 422,
  codes: [
    'ERR_OBJSTORE_INVALID_NAME',
    'ERR_OBJSTORE_INVALID_ENDPOINT',
    'ERR_OBJSTORE_INVALID_REGION',
    'ERR_OBJSTORE_INVALID_BUCKET',
    'ERR_OBJSTORE_INVALID_PREFIX',
    'ERR_OBJSTORE_INVALID_PUBLIC_URL',
    'ERR_OBJSTORE_INVALID_ACCESS_KEY',
    'ERR_OBJSTORE_INVALID_SECRET',
    'ERR_OBJSTORE_SECRET_REQUIRED',
  ],
};
const CHECK_FAILED: RouteError = {
  status: 422,
  codes: [
    'ERR_OBJSTORE_UNREACHABLE',
    'ERR_OBJSTORE_ACCESS_DENIED',
    'ERR_OBJSTORE_BUCKET_NOT_FOUND',
    'ERR_OBJSTORE_CHECK_FAILED',
    'ERR_URL_NOT_ALLOWED',
    'ERR_OBJSTORE_SECRET_UNREADABLE',
  ],
  description:
    'The connection test failed: `{ "error": code, "step": "connect" | "write" | "read" | "delete" }` (no `step` when the stored secret cannot be opened)',
};
const IN_USE: RouteError = { status: 409, codes: ['ERR_OBJSTORE_CONFIG_IN_USE'], description: 'Files are stored through this config' };

/** What the config form sends; on an edit the whole loaded config may come back (read-only fields are ignored). */
const configBody = z
  .object({
    name: z.string().max(1000).meta({ description: 'A label for the admins, 1 to 100 characters once trimmed', example: 'Media on R2' }),
    provider: z.enum(OBJSTORE_PROVIDERS).meta({ description: '`s3` (the default), `minio`, `r2`, `wasabi`, `spaces` or `other`' }),
    endpoint: z
      .string()
      .max(2000)
      .nullable()
      .meta({ description: "The service's origin (`https://s3.eu-west-1.amazonaws.com`, `https://minio.lan:9000`); `s3` may leave it out" }),
    region: z.string().max(200).nullable().meta({ description: 'Blank: `us-east-1` (`auto` for `r2`)' }),
    bucket: z.string().max(200).meta({
      description: 'The bucket name: 3 to 63 letters, digits, `.`, `-` or `_`, starting and ending with a letter or digit',
      example: 'desk-media',
    }),
    prefix: z.string().max(1000).nullable().meta({ description: "Folders the company's objects go under (`loja-exemplo/media`); blank: the bucket's root" }),
    forcePathStyle: z.boolean().meta({ description: 'Path-style requests; absent on create: true for `minio` and `other`' }),
    publicBaseUrl: z
      .string()
      .max(2000)
      .nullable()
      .meta({ description: 'A CDN serving the bucket (public files are redirected there); null: the backend serves them' }),
    accessKeyId: z.string().max(1000).meta({ description: 'The access key id, up to 128 printable characters without spaces', example: 'a1b2c3d4e5f6' }),
    secretAccessKey: z.string().max(10_000).nullable().meta({
      description: 'Write-only: stored sealed, never shown. Required on create; on an edit absent, `""` or null keeps the stored one',
    }),
    active: z.boolean().meta({
      description: "`true` tests the connection, then makes it the company's only active config; `false` sends new uploads back to the default store",
    }),
  })
  .partial();

/** A new R2 bucket, tested and made active at once. */
const CONFIG_BODY_EXAMPLE = {
  name: 'Media on R2',
  provider: 'r2' as const,
  endpoint: 'https://0123456789abcdef.r2.cloudflarestorage.com',
  region: 'auto',
  bucket: 'desk-media',
  prefix: 'loja-exemplo',
  forcePathStyle: false,
  publicBaseUrl: 'https://media.loja-exemplo.com.br',
  accessKeyId: 'a1b2c3d4e5f6',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYx9Qe',
  active: true,
};

const input = (body: z.output<typeof configBody>): ObjstoreConfigInput =>
  Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as ObjstoreConfigInput;

/**
 * The company's own object stores (`/objstore-configs`): S3-compatible buckets its new uploads go
 * to, the secret write-only, each tested for real before it is made active. Events:
 * `company-<id>-objstoreConfig`, to admins.
 */
export function objstoreRoutes(app: ObjstoreApp) {
  const o = app.objstore;
  const byId = idParam('id');
  return [
    route({
      method: 'GET',
      path: '/objstore-configs',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'listObjstoreConfigs',
      summary: "The company's object-store configs (admin)",
      description: 'Admins only. A bare array by name. Secrets are never shown (`hasSecret`, `secretLast4`).',
      response: objstoreConfigListSchema,
      errors: [ADMIN_ONLY],
      handler: async ({ actor }) => o.listObjstoreConfigs.execute({ actor }),
    }),
    route({
      method: 'POST',
      path: '/objstore-configs/test-connection',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'testObjstoreConnection',
      summary: 'Test a bucket (admin)',
      body: configBody
        .extend({ id: id.optional().meta({ description: 'A saved config to test, with the fields sent instead of its own' }) })
        .meta({ example: { id: 3, bucket: 'desk-media-eu', prefix: 'loja-exemplo/media' } }),
      description:
        'Admins only. Tests the config sent, or the saved one `id` (its stored secret unless another is sent), without saving anything: puts ' +
        '`<prefix>/.healthcheck-<uuid>`, reads it back and deletes it. 200 with the report, or 422 `{ error, step }` at the first step that failed. ' +
        'Endpoints on private or loopback addresses are refused unless the server allows them (`ALLOW_PRIVATE_URLS`).',
      response: connectionTestSchema,
      errors: [ADMIN_ONLY, NOT_FOUND, FIELD_ERRORS, CHECK_FAILED],
      handler: async ({ actor, body }) => {
        const { id: configId, ...fields } = body;
        return o.testObjstoreConnection.execute({ ...input(fields), actor, ...(configId !== undefined ? { configId } : {}) });
      },
    }),
    route({
      method: 'GET',
      path: '/objstore-configs/:id',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'showObjstoreConfig',
      summary: 'One object-store config (admin)',
      params: byId,
      description: "Admins only. Another company's config is not found.",
      response: objstoreConfigSchema,
      errors: [ADMIN_ONLY, NOT_FOUND],
      handler: async ({ actor, params }) => o.showObjstoreConfig.execute({ actor, configId: params.id }),
    }),
    route({
      method: 'POST',
      path: '/objstore-configs',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'createObjstoreConfig',
      summary: 'Add an object-store config (admin)',
      body: configBody.required({ name: true, bucket: true, accessKeyId: true }).meta({ example: CONFIG_BODY_EXAMPLE }),
      description:
        'Admins only. The secret is sealed (AES-256-GCM) before it is stored and never shown again. With `active: true` the connection is tested ' +
        'first (422 `{ error, step }`, nothing saved, when it fails), then the config replaces the active one. Answers 200 with the config and sends ' +
        '`objstoreConfig` frames (`create`, and `update` for a config it deactivated) to admins.',
      response: objstoreConfigSchema,
      errors: [ADMIN_ONLY, FIELD_ERRORS, CHECK_FAILED],
      handler: async ({ actor, body }) => o.createObjstoreConfig.execute({ ...input(body), actor }),
    }),
    route({
      method: 'PUT',
      path: '/objstore-configs/:id',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'updateObjstoreConfig',
      summary: 'Edit an object-store config (admin)',
      params: byId,
      body: configBody.meta({ example: { name: 'Media on R2 (EU)', publicBaseUrl: null, active: true } }),
      description:
        'Admins only. Only the fields sent change; the secret only when a non-empty `secretAccessKey` is sent. `active: true`, or a change of how ' +
        'an active config connects, tests the connection first. While files are stored through it, its endpoint, bucket and prefix cannot change (409). ' +
        'Sends `objstoreConfig` frames (`update`).',
      response: objstoreConfigSchema,
      errors: [ADMIN_ONLY, NOT_FOUND, FIELD_ERRORS, CHECK_FAILED, IN_USE],
      handler: async ({ actor, params, body }) => o.updateObjstoreConfig.execute({ ...input(body), actor, configId: params.id }),
    }),
    route({
      method: 'DELETE',
      path: '/objstore-configs/:id',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'deleteObjstoreConfig',
      summary: 'Remove an object-store config (admin)',
      params: byId,
      description:
        'Admins only, once no file is stored through it (409 otherwise: deactivate it instead). Removing the active config sends new uploads ' +
        'to the default store. Answers `{ "message": "Object storage config deleted" }` and sends an `objstoreConfig` frame (`delete`, `configId`).',
      response: deletedSchema,
      errors: [ADMIN_ONLY, NOT_FOUND, IN_USE],
      handler: async ({ actor, params }) => {
        await o.deleteObjstoreConfig.execute({ actor, configId: params.id });
        return { message: 'Object storage config deleted' };
      },
    }),
  ];
}
