import { z } from 'zod';
import type { RouteSpec } from './route.js';

const SECURITY: Record<string, Array<Record<string, string[]>>> = {
  isAuth: [{ platformJwt: [] }],
  tokenAuth: [{ connectionToken: [] }],
  isAuthCompany: [{ companyToken: [] }],
  none: [],
};

function toOpenApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input') {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** An OpenAPI 3.1 document of the registered routes, generated from the same schemas that validate them. */
export function buildOpenApi(routes: readonly RouteSpec[], info: { title: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const parameters: unknown[] = [];
    for (const [where, schema] of [['path', r.params], ['query', r.query]] as const) {
      if (!schema) continue;
      const js = jsonSchema(schema) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, s] of Object.entries(js.properties ?? {})) {
        parameters.push({ name, in: where, required: where === 'path' || (js.required ?? []).includes(name), schema: s });
      }
    }
    const op: Record<string, unknown> = {
      summary: r.summary,
      tags: [r.tag],
      security: SECURITY[r.auth],
      'x-auth-class': r.auth,
      ...(parameters.length ? { parameters } : {}),
      responses: {
        [String(r.status ?? 200)]: { description: 'Success' },
        default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
    if (r.multipart) {
      const fields = r.body ? (jsonSchema(r.body) as { properties?: Record<string, unknown> }).properties ?? {} : {};
      const files = Object.fromEntries(r.multipart.fileFields.map((f) => [f, { type: 'string', contentMediaType: 'application/octet-stream' }]));
      op.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: { ...fields, ...files } } } } };
    } else if (r.body) {
      op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(r.body) } } };
    }
    (paths[toOpenApiPath(r.path)] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { ...info, license: { name: 'MIT', identifier: 'MIT' } },
    components: {
      securitySchemes: {
        platformJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        connectionToken: { type: 'http', scheme: 'bearer' },
        companyToken: { type: 'http', scheme: 'bearer' },
      },
      schemas: {
        Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
      },
    },
    paths,
  };
}
