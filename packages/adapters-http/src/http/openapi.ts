import { createHash } from 'node:crypto';
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { errorBody, errorResponses, standardErrorResponses } from './openapi-errors.js';
import { multipartTotalLimit } from './multipart.js';
import { shareRepeatedParameters, shareRepeatedSchemas } from './openapi-share.js';
import { operationIds } from './operation-ids.js';
import { paramDescription } from './schemas.js';
import type { AuthClass, RouteSpec } from './route.js';

const SECURITY: Record<AuthClass, Array<Record<string, string[]>>> = {
  isAuth: [{ platformJwt: [] }],
  tokenAuth: [{ connectionToken: [] }],
  isAuthCompany: [{ companyToken: [] }],
  none: [],
};

/** The credentials, said once: each operation names its own in `security` (none: public) and `x-auth-class`. */
const SECURITY_SCHEMES = {
  platformJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: '`isAuth`: a platform access token (`Authorization: Bearer <JWT>`)' },
  connectionToken: { type: 'http', scheme: 'bearer', description: "`tokenAuth`: the connection's API token (`Authorization: Bearer <token>`)" },
  companyToken: { type: 'http', scheme: 'bearer', description: '`isAuthCompany`: the company integration token (`Authorization: Bearer <COMPANY_TOKEN>`)' },
} as const;

/** What each group of routes is for; a test checks that every tag in use has its sentence. */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Auth: 'Sign-in, the refresh cookie, sign-up of a new company and password recovery.',
  Users: "The company's operators and admins: profiles, queues, presence and passwords.",
  'Companies and plans': "Tenants and the plans that switch their features and limits (super admin), and a company's own record.",
  Settings: 'Company settings (business hours, time zone, behaviour switches) and the white-label files.',
  'Company integration API (auth: `isAuthCompany`)': 'The company integration API under `/api/*`, authenticated by `COMPANY_TOKEN`.',
  'Subscriptions, invoices, webhooks': "Plans' invoices, Pix charges through the payment gateway and its signed notifications.",
  'Chat application, social network and sessions (connections)':
    'Connections (`chatapp` sessions, `socialnet` pages, the `bizchat` business API), their sessions and the provider webhooks.',
  'Official message API': "Sending messages with a connection's API token (`/api/messages/*`): text, media, templates, with `Idempotency-Key`.",
  'Tickets and messages': 'The conversations: tickets, their messages, notes, forwarding, transfers and closing.',
  'Queues, tags, chatbots, campaigns': 'Routing and automation: queues with their menus and bots, tags and the kanban, campaigns and their settings.',
  Contacts: "The company's contacts: search, edit, import and export, custom fields and the number check.",
  'Contact lists, announcements, internal chats': "Campaign audiences, platform announcements and the operators' internal chats.",
  'Dashboard, statistics, schedules, transcription': 'Figures and reports, scheduled messages and speech-to-text of audio messages.',
  Proxies: "Proxies that connections' sessions go out through, and their health checks.",
  'File lists': 'Named lists of files operators and bots send.',
  'Flows (flow builder)': 'Conversation flows: drafts of nodes and edges, publishing, and their runs.',
  'Catalog, products, orders': "The company's catalog (categories and products) and the orders taken in conversations.",
  'Object storage': "A company's own S3-compatible bucket for its uploads.",
  'Company templates': 'Message templates with variables, for operators.',
  'Contact sellers': 'The seller responsible for each contact.',
  'Templates and sellers': "The business API's message templates (`bizchat`) and the sellers' assignments.",
  'Files, prompts, proxies, utilities': 'Prompts for language models, version and health, uploads and other utilities.',
};

/** The document's own introduction: what no single operation says. */
const INTRODUCTION = [
  'Every route of the backend, generated from the same declarations that validate its requests and answers.',
  'An error answers `{ "error": "ERR_..." }` with one of the codes its operation lists.',
  '**Realtime**: each company has a namespace on this server. Raw websocket: `ws://<host>/<companyId>?token=<access JWT>[&since=<seq>]`,',
  'frames `{ "seq": n, "event": "company-<companyId>-<entity>", "data": { "action": "...", ... } }` with `seq` increasing per company;',
  'reconnecting with `since` (the last `seq` seen) replays what was missed, or sends `{ "event": "resync" }` when it is gone and the lists must be reloaded.',
  'socket.io: path `/socket.io/`, namespace `/<companyId>`, token in `auth.token`; the same events with the same `data`, without `seq`.',
  'A socket receives only what its user may read over HTTP.',
].join(' ');

const SUCCESS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

function toOpenApiPath(path: string): string {
  return path.replace(/[:*](\w+)/g, '{$1}');
}

const isObject = (s: z.ZodType): s is z.ZodObject => s instanceof z.ZodObject;

/** The path parameters as declared, plus a string for any the route leaves undeclared. */
function pathParams(r: RouteSpec): z.ZodObject | z.ZodPipe | undefined {
  const names = [...r.path.matchAll(/[:*](\w+)/g)].map((m) => m[1]!);
  if (r.params && !isObject(r.params)) return r.params as z.ZodPipe;
  const shape = r.params && isObject(r.params) ? r.params.shape : {};
  const missing = names.filter((n) => !(n in shape));
  if (!missing.length) return r.params as z.ZodObject | undefined;
  return z.object({ ...shape, ...Object.fromEntries(missing.map((n) => [n, z.string().meta({ description: paramDescription(n) })])) });
}

/** A file form field: one file, or a list when the route takes several. */
function fileField(r: RouteSpec) {
  const limits = r.multipart!;
  const file = z.any().meta({
    type: 'string',
    format: 'binary',
    contentMediaType: 'application/octet-stream',
    description: `A file of at most ${limits.maxFileBytes} bytes`,
  });
  if (limits.maxFiles <= 1) return file.optional();
  return z
    .array(file)
    .max(limits.maxFiles)
    .meta({ description: `Up to ${limits.maxFiles} files of at most ${limits.maxFileBytes} bytes each` })
    .optional();
}

function requestBody(r: RouteSpec): NonNullable<RouteConfig['request']>['body'] {
  if (r.raw) {
    return {
      required: true,
      description: `Read unparsed, at most ${r.raw} bytes; the handler checks and parses it`,
      content: { 'application/json': { schema: {} } },
    };
  }
  const content: Record<string, { schema: z.ZodType }> = {};
  if (r.multipart) {
    const files = z.object(Object.fromEntries(r.multipart.fileFields.map((f) => [f, fileField(r)])));
    const merged = !r.body ? files : isObject(r.body) ? z.object({ ...r.body.shape, ...files.shape }) : z.intersection(r.body, files);
    // The body's own example (its form fields) stays the example of the form.
    const example = r.body?.meta()?.example;
    content['multipart/form-data'] = { schema: example === undefined ? merged : merged.meta({ example }) };
  }
  if (r.body && (!r.multipart || r.jsonOrMultipart)) content['application/json'] = { schema: r.body };
  if (!Object.keys(content).length) return undefined;
  // An empty body reads as `{}`: the body is required only when the schema refuses that.
  let required = true;
  try {
    required = !r.body || !r.body.safeParse({}).success || r.multipart !== undefined;
  } catch {
    /* async refinements */
  }
  return { required, content };
}

function description(r: RouteSpec): string {
  // Who may call it is the operation's `security` and `x-auth-class`, not a sentence of every description.
  const facts: string[] = [];
  if (r.guard) facts.push('Checks a credential of its own (a shared secret) before reading the body: 401 without it.');
  if (r.feature) facts.push(`**Plan feature**: \`${r.feature}\` (else 403 \`ERR_PLAN_FEATURE_DISABLED\`).`);
  if (r.duringPasswordChange) facts.push('Reachable before the seeded default password is changed.');
  if (r.multipart) {
    const m = r.multipart;
    facts.push(
      `**Upload** (multipart/form-data): file fields ${m.fileFields.map((f) => `\`${f}\``).join(', ')}; at most ${m.maxFiles} file(s) of ${m.maxFileBytes} bytes each, ${multipartTotalLimit(m)} bytes in all; an empty file is refused (422 \`ERR_EMPTY_FILE\`).` +
        (r.jsonOrMultipart ? ' A JSON body with the same fields (no files) is accepted too.' : ''),
    );
  }
  return [r.description?.trim(), facts.join(' ')].filter(Boolean).join('\n\n');
}

function successResponses(r: RouteSpec): RouteConfig['responses'] {
  const status = r.status ?? 200;
  if (status === 204) return { 204: { description: SUCCESS_TEXT[204]! } };
  if (!r.response) return { [status]: { description: `${SUCCESS_TEXT[status] ?? 'Success'} (the body is not described yet)` } };
  const responses: RouteConfig['responses'] = {
    [status]: {
      // What the body is, its schema says (its description); the response says only the status.
      description: SUCCESS_TEXT[status] ?? 'Success',
      content: { [r.responseMediaType ?? 'application/json']: { schema: r.response } },
    },
  };
  // An optional body: the handler may answer nothing, which is a 204.
  if (r.response instanceof z.ZodOptional) responses[204] = { description: SUCCESS_TEXT[204]! };
  return responses;
}

/** An OpenAPI 3.1 document of the registered routes, generated from the same schemas that validate them. */
export function buildOpenApi(routes: readonly RouteSpec[], info: { title: string; version: string }) {
  const registry = new OpenAPIRegistry();
  for (const { name, response } of standardErrorResponses()) registry.registerComponent('responses', name, response);
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) registry.registerComponent('securitySchemes', name, scheme);
  const ids = operationIds(routes);
  for (const r of routes) {
    if (r.status === 204 && r.response) throw new Error(`${r.method} ${r.path}: a 204 route answers no body, so it has no response schema`);
    const body = requestBody(r);
    registry.registerPath({
      method: r.method.toLowerCase() as RouteConfig['method'],
      path: toOpenApiPath(r.path),
      operationId: ids.get(r)!,
      summary: r.summary,
      description: description(r),
      tags: [r.tag],
      security: SECURITY[r.auth],
      'x-auth-class': r.auth,
      request: { params: pathParams(r), query: r.query as z.ZodObject | undefined, headers: r.headers, ...(body ? { body } : {}) },
      responses: { ...successResponses(r), ...(errorResponses(r) as RouteConfig['responses']) },
    });
  }
  const tags = [...new Set(routes.map((r) => r.tag))].map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) }));
  const doc = new OpenApiGeneratorV31([{ type: 'schema', schema: errorBody }, ...registry.definitions]).generateDocument({
    openapi: '3.1.0',
    info: { ...info, description: INTRODUCTION, license: { name: 'MIT', identifier: 'MIT' } },
    // Relative: the server that serves this document is the one it describes.
    servers: [{ url: '/', description: 'This server' }],
    tags,
  });
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item) as Array<{ parameters?: WireParameter[] }>) operation.parameters?.forEach(asWireParameter);
  }
  shareRepeatedParameters(doc as unknown as Parameters<typeof shareRepeatedParameters>[0]);
  shareRepeatedSchemas(doc as unknown as Parameters<typeof shareRepeatedSchemas>[0]);
  shareErrorResponses(doc as unknown as Parameters<typeof shareErrorResponses>[0]);
  return doc;
}

type Responses = Record<string, Record<string, unknown>>;

/**
 * Error responses written once: many routes answer the same status with the same codes (a 404 for
 * one kind of row, a 403 of the profile rule), and each used to carry its own copy. Each distinct one
 * becomes a component named after its code (or its status and a digest of its codes; a second one
 * answering the same codes in other words takes a number after it), referenced by
 * every operation that answers it.
 */
function shareErrorResponses(doc: { paths?: Record<string, Record<string, { responses?: Responses }>>; components?: { responses?: Responses } }): void {
  const shared = ((doc.components ??= {}).responses ??= {});
  const named = new Map<string, string>();
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (/^2/.test(status) || '$ref' in response) continue;
        const key = JSON.stringify(response);
        let name = named.get(key);
        if (!name) {
          const codes = Object.keys((response.content as Record<string, { examples?: object }> | undefined)?.['application/json']?.examples ?? {});
          // Named by what it answers, not by its wording: a reworded description keeps the name (and clients' generated types).
          const base = codes.length === 1 ? codes[0]! : `Error${status}-${createHash('sha256').update(codes.sort().join(',')).digest('hex').slice(0, 8)}`;
          name = base;
          for (let n = 2; shared[name]; n++) name = `${base}-${n}`;
          shared[name] = response;
          named.set(key, name);
        }
        operation.responses![status] = { $ref: `#/components/responses/${name}` };
      }
    }
  }
}

interface WireParameter {
  in?: string;
  required?: boolean;
  schema?: unknown;
}

/**
 * Path and query values are strings on the wire, never null: the library takes a coercing schema
 * (`z.coerce.number()`, which accepts null) for a nullable, optional one. A path parameter is required.
 */
function asWireParameter(p: WireParameter): void {
  if (p.in === 'path') p.required = true;
  const schema = p.schema as { type?: unknown } | undefined;
  if (schema && Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = schema.type.filter((t) => t !== 'null');
    schema.type = types.length === 1 ? types[0] : types;
  }
}
