import { ERROR_CODES, isErrorCode, kindsOf, placesOf, type ErrorCode } from '@servicedesk/core';
import { z } from 'zod';
import { STATUS_OF } from './error-middleware.js';
import type { RouteSpec } from './route.js';

/**
 * The whole catalog of codes (core's `ERROR_CODES`), as the `Error` schema's `x-error-codes`: for
 * each code its kinds, the HTTP statuses they are answered with, what it means, and where clients
 * see it when not (only) in error answers.
 */
export function errorCodesExtension() {
  return Object.fromEntries(
    Object.keys(ERROR_CODES)
      .filter(isErrorCode)
      .map((code) => {
        const kinds = kindsOf(code);
        const where = placesOf(code);
        return [
          code,
          {
            kind: kinds.length === 1 ? kinds[0] : kinds,
            ...(where.includes('answer') ? { status: kinds.map((k) => STATUS_OF[k]) } : {}),
            ...(where.length === 1 && where[0] === 'answer' ? {} : { where }),
            description: ERROR_CODES[code].description,
          },
        ];
      }),
  );
}

/** Every error body: `{ error }`, and on 422 from schema validation the failing `fields`. */
export const errorBody = z
  .object({
    error: z.string().meta({
      description:
        'A stable `ERR_` code (`Internal server error` on 500). Every code, with its HTTP status and meaning, is listed in this ' +
        "schema's `x-error-codes`; each operation's error responses name the codes it declares.",
      example: 'ERR_NO_TAG_FOUND',
    }),
    fields: z
      .array(
        z.object({
          path: z.string().meta({ description: 'Where: `body.`, `query.` or `params.` and the field path', example: 'body.name' }),
          message: z.string().meta({ example: 'Too small: expected string to have >=1 characters' }),
        }),
      )
      .optional()
      .meta({
        description:
          'On 422 `ERR_VALIDATION`: each field the schema refused; on 422 `ERR_ORDER_OUT_OF_STOCK`: each order line short of stock (`items.<i>.quantity`), naming its product',
      }),
    nodeId: z.string().nullable().optional().meta({
      description:
        "On 422 `ERR_FLOW_INVALID_GRAPH`, `ERR_FLOW_INVALID_NODE` and `ERR_FLOW_LOOP`: the node at fault, null when the graph as a whole is; on 422 `ERR_FLOW_INVALID_EDGE`: the edge's source node as the edge names it (null when that is no id)",
      example: 'n-3',
    }),
    edgeId: z.string().nullable().optional().meta({
      description:
        'On 422 `ERR_FLOW_INVALID_EDGE`: the edge at fault as the request named it; null for an edge the server names (`POST /flows/:flowId/edges`) or an id that is no id',
      example: 'e-7',
    }),
    reason: z.string().optional().meta({ description: 'With `nodeId`: why, in words', example: 'The handle `false` leads nowhere' }),
    step: z.enum(['connect', 'write', 'read', 'delete']).optional().meta({
      description: "On 422 from an object store's connection test (`ERR_OBJSTORE_…`, `ERR_URL_NOT_ALLOWED`): the step that failed",
      example: 'write',
    }),
  })
  .meta({ id: 'Error', description: 'Every error answer', 'x-error-codes': errorCodesExtension() });

interface StandardError {
  readonly name: string;
  readonly description: string;
  readonly example: z.input<typeof errorBody>;
}

/** The errors the HTTP layer answers by itself, each a response component. */
export const STANDARD_ERRORS: Readonly<Record<number, StandardError>> = {
  400: {
    name: 'BadRequest',
    description:
      'Malformed body: JSON that does not parse (`ERR_INVALID_JSON`) or nests more than 64 levels (`ERR_JSON_TOO_DEEP`), or a broken multipart stream (`ERR_INVALID_MULTIPART`)',
    example: { error: 'ERR_INVALID_JSON' },
  },
  401: {
    name: 'Unauthorized',
    description:
      "Missing, invalid or expired credential: the platform token (`ERR_SESSION_EXPIRED`), the connection token (`ERR_INVALID_CONNECTION_TOKEN`), the company token (`ERR_INVALID_COMPANY_TOKEN`) or the route's own secret or signature",
    example: { error: 'ERR_SESSION_EXPIRED' },
  },
  403: {
    name: 'Forbidden',
    description:
      "The caller's profile may not do this, the company's plan lacks the feature (`ERR_PLAN_FEATURE_DISABLED`), or the default password must be changed first (`ERR_PASSWORD_CHANGE_REQUIRED`)",
    example: { error: 'ERR_PASSWORD_CHANGE_REQUIRED' },
  },
  404: {
    name: 'NotFound',
    description: "No such row in the caller's company (another company's rows are not found either)",
    example: { error: 'ERR_NO_TAG_FOUND' },
  },
  409: { name: 'Conflict', description: 'Conflicts with the current state (a name or number in use...)', example: { error: 'ERR_TAG_NAME_ALREADY_EXISTS' } },
  413: {
    name: 'PayloadTooLarge',
    description:
      'Body, file, field or file count over the limit (`ERR_BODY_TOO_LARGE`, `ERR_FILE_TOO_LARGE`, `ERR_FIELD_TOO_LARGE`, `ERR_TOO_MANY_FILES`, `ERR_TOO_MANY_FIELDS`)',
    example: { error: 'ERR_BODY_TOO_LARGE' },
  },
  415: {
    name: 'UnsupportedMediaType',
    description: 'A body of a content type the route does not read (`ERR_UNSUPPORTED_CONTENT_TYPE`)',
    example: { error: 'ERR_UNSUPPORTED_CONTENT_TYPE' },
  },
  422: {
    name: 'ValidationFailed',
    description: 'The params, query or body do not fit the schema (`ERR_VALIDATION` with `fields`), or a domain rule refused a value (its own code)',
    example: { error: 'ERR_VALIDATION', fields: [{ path: 'body.name', message: 'Invalid input: expected string, received number' }] },
  },
  429: { name: 'TooManyRequests', description: 'Throttled; `Retry-After` says how many seconds to wait', example: { error: 'ERR_TOO_MANY_LOGIN_ATTEMPTS' } },
  500: {
    name: 'InternalError',
    description: 'An unexpected failure; details are only in the log, under the request id (`X-Request-Id`)',
    example: { error: 'Internal server error' },
  },
  503: { name: 'ServiceUnavailable', description: 'A service the route depends on does not answer', example: { error: 'ERR_CNPJ_REGISTRY_UNAVAILABLE' } },
};

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' as const, minimum: 1 } } };
const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** The response components of the standard errors, by name. */
export function standardErrorResponses() {
  return Object.entries(STANDARD_ERRORS).map(([status, e]) => ({
    name: e.name,
    response: {
      description: e.description,
      ...(status === '429' ? { headers: RETRY_AFTER } : {}),
      content: { 'application/json': { schema: ERROR_REF, example: e.example } },
    },
  }));
}

/** The error statuses the registry itself answers for a route, from its declaration alone. */
export function derivedErrorStatuses(r: RouteSpec): number[] {
  const readsJson = r.body !== undefined && (!r.multipart || r.jsonOrMultipart === true);
  const readsBody = readsJson || r.multipart !== undefined || r.raw !== undefined;
  const statuses = new Set<number>();
  if (r.auth !== 'none' || r.guard || r.raw) statuses.add(401);
  if (r.auth === 'isAuth') statuses.add(403);
  if (/[:*]\w/.test(r.path)) statuses.add(404);
  if (readsJson || r.multipart) statuses.add(400).add(415);
  if (readsBody) statuses.add(413);
  if (r.body || r.query || r.params || r.multipart) statuses.add(422);
  statuses.add(500);
  return [...statuses];
}

/**
 * The error responses of a route: derived and declared statuses, each a reference to its
 * standard component, or inline when the route names its codes or says more.
 */
export function errorResponses(r: RouteSpec): Record<string, unknown> {
  const declared = new Map<number, { codes: ErrorCode[]; description?: string }>();
  for (const e of r.errors ?? []) {
    const { status, codes = [], description } = typeof e === 'number' ? { status: e } : e;
    const seen = declared.get(status) ?? { codes: [] };
    declared.set(status, { codes: [...seen.codes, ...codes], description: description ?? seen.description });
  }
  const statuses = [...new Set([...derivedErrorStatuses(r), ...declared.keys()])].sort((a, b) => a - b);
  const responses: Record<string, unknown> = {};
  for (const status of statuses) {
    const standard = STANDARD_ERRORS[status];
    const own = declared.get(status);
    if (standard && !own?.codes.length && !own?.description) {
      responses[status] = { $ref: `#/components/responses/${standard.name}` };
      continue;
    }
    const codes = own?.codes ?? [];
    const text = own?.description ?? standard?.description ?? 'Error';
    responses[status] = {
      description: codes.length ? `${text}. Codes: ${codes.map((c) => `\`${c}\``).join(', ')}` : text,
      ...(status === 429 ? { headers: RETRY_AFTER } : {}),
      content: {
        'application/json': {
          schema: ERROR_REF,
          ...(codes.length ? { examples: Object.fromEntries(codes.map((c) => [c, { value: { error: c } }])) } : standard ? { example: standard.example } : {}),
        },
      },
    };
  }
  return responses;
}
