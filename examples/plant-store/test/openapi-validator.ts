import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext the default import is `module.exports`, whose `.default` is the plugin.
const addFormats = addFormatsModule.default;

// Read the checked-in file itself (not the app's import of it), since that file is the contract.
export const openApiDocument = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as OpenApiDocument;

export interface OpenApiDocument {
  openapi: string;
  info: { version: string; license?: { name: string; identifier?: string } };
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
}

interface ResponseObject {
  content?: Record<string, unknown>;
  headers?: Record<string, { required?: boolean }>;
}

export interface ObservedResponse {
  method: string;
  /** Path as requested; a query string is ignored. */
  url: string;
  status: number;
  headers: Headers;
  text: string;
}

const DOC_ID = 'https://plant-store.example/openapi.json';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
// Register only `paths` and `components` under a base URI: response schemas are then reachable by JSON
// pointer, and their `#/components/...` refs resolve against the same document, exactly as in OpenAPI.
// Declaring the two OpenAPI keys as keywords keeps Ajv's strict mode happy about the wrapper.
ajv.addKeyword('paths');
ajv.addKeyword('components');
ajv.addSchema({ $id: DOC_ID, paths: openApiDocument.paths, components: openApiDocument.components });

/** Walks a local JSON pointer such as `#/components/schemas/Plant`; `undefined` when it leads nowhere. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

export function collectRefs(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, found);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else collectRefs(value, found);
    }
  }
  return found;
}

/** Compiled validator for the schema at a pointer in the document (compiles lazily, then cached by Ajv). */
export function schemaAt(pointer: string) {
  const validate = ajv.getSchema(`${DOC_ID}${pointer}`);
  if (!validate) throw new Error(`No schema at ${pointer}`);
  return validate;
}

/** Which documented operation handles a request, templated paths (`/plants/{id}`) after literal ones. */
export function findOperation(method: string, url: string): { template: string; pointer: string } | undefined {
  const path = new URL(url, 'http://x').pathname;
  const lowerMethod = method.toLowerCase();
  const templates = Object.keys(openApiDocument.paths).sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')));
  for (const template of templates) {
    const pattern = new RegExp(
      `^${template
        .split(/\{[^}]+\}/)
        .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]+')}$`,
    );
    if (pattern.test(path) && HTTP_METHODS.includes(lowerMethod) && openApiDocument.paths[template]?.[lowerMethod]) {
      return { template, pointer: `#/paths/${escapePointer(template)}/${lowerMethod}` };
    }
  }
  return undefined;
}

/**
 * Throws unless the response matches the document: the status is documented for the operation
 * (4xx explicitly; only 5xx may fall back to `default`), required headers are present, a response
 * without `content` has no body, and a JSON body validates against the response schema.
 * Requests no operation covers (unknown routes, wrong methods) must be failures carrying the Error object.
 */
export function assertMatchesOpenApi(response: ObservedResponse): void {
  const where = `${response.method} ${response.url} → ${response.status}`;
  const operation = findOperation(response.method, response.url);
  if (!operation) {
    if (response.status < 400) throw new Error(`${where}: undocumented request succeeded`);
    validateJson(where, '#/components/schemas/Error', response);
    return;
  }

  const responses = resolvePointer(openApiDocument, `${operation.pointer}/responses`) as Record<string, unknown>;
  const key = String(response.status) in responses ? String(response.status) : response.status >= 500 ? 'default' : '';
  if (!(key in responses)) {
    throw new Error(`${where}: status not documented for ${response.method.toUpperCase()} ${operation.template}`);
  }
  // Follow a response-level $ref, keeping the pointer so Ajv validates against the schema in place.
  let pointer = `${operation.pointer}/responses/${key}`;
  let documented = resolvePointer(openApiDocument, pointer) as ResponseObject & { $ref?: string };
  while (documented.$ref) {
    pointer = documented.$ref;
    documented = resolvePointer(openApiDocument, pointer) as ResponseObject & { $ref?: string };
  }

  for (const [name, header] of Object.entries(documented.headers ?? {})) {
    if (header.required && !response.headers.has(name)) throw new Error(`${where}: missing header ${name}`);
  }
  if (!documented.content) {
    if (response.text !== '') throw new Error(`${where}: documented without content but has a body`);
    return;
  }
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  if (!(mediaType in documented.content)) throw new Error(`${where}: undocumented content type "${mediaType}"`);
  validateJson(where, `${pointer}/content/${escapePointer(mediaType)}/schema`, response);
}

function validateJson(where: string, schemaPointer: string, response: ObservedResponse): void {
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    throw new Error(`${where}: body is not JSON: ${JSON.stringify(response.text.slice(0, 200))}`);
  }
  const validate = schemaAt(schemaPointer);
  if (!validate(body)) {
    throw new Error(`${where}: body does not match ${schemaPointer}: ${ajv.errorsText(validate.errors)}`);
  }
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}
