import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext the default import is `module.exports`, whose `.default` is the plugin.
const addFormats = addFormatsModule.default;

const DOC_ID = 'https://servicedesk.test/openapi.json';
const pointer = (...keys: Array<string | number>) => keys.map((k) => `/${String(k).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `example`s written inside a schema and its subschemas, with the pointer of the schema each belongs to. */
function schemaExamples(schema: unknown, at: string, found: Array<{ at: string; example: unknown }> = []) {
  if (!isNode(schema)) return found;
  if ('example' in schema) found.push({ at, example: schema.example });
  for (const key of ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains']) schemaExamples(schema[key], `${at}${pointer(key)}`, found);
  for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
    (Array.isArray(schema[key]) ? (schema[key] as unknown[]) : []).forEach((s, i) => {
      schemaExamples(s, `${at}${pointer(key, i)}`, found);
    });
  }
  for (const [name, s] of Object.entries(isNode(schema.properties) ? schema.properties : {})) schemaExamples(s, `${at}${pointer('properties', name)}`, found);
  return found;
}

/**
 * What is wrong with the schemas of an OpenAPI 3.1 document beyond its structure (which the
 * OpenAPI validator checks): a schema that is not valid JSON Schema 2020-12, or an example
 * (in a schema, or of a media type) that its own schema refuses.
 */
export function schemaProblems(doc: { paths?: Node; components?: Node }): string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  // `#/components/...` refs inside resolve against the document, as in OpenAPI.
  ajv.addSchema({ $id: DOC_ID, paths: doc.paths, components: doc.components });
  const problems: string[] = [];
  const check = (at: string, examples: Array<{ at: string; example: unknown }>) => {
    let validate: ReturnType<typeof ajv.compile>;
    try {
      validate = ajv.compile({ $ref: `${DOC_ID}#${at}` });
    } catch (err) {
      problems.push(`${at}: not a valid schema: ${(err as Error).message}`);
      return;
    }
    for (const e of examples) {
      const fits = e.at === at ? validate : ajv.compile({ $ref: `${DOC_ID}#${e.at}` });
      if (!fits(e.example)) problems.push(`${e.at}: example ${JSON.stringify(e.example)} refused: ${ajv.errorsText(fits.errors)}`);
    }
  };
  const checkContent = (content: unknown, at: string) => {
    for (const [type, media] of Object.entries(isNode(content) ? content : {})) {
      if (!isNode(media) || !('schema' in media)) continue;
      const schemaAt = `${at}${pointer(type, 'schema')}`;
      const examples = schemaExamples(media.schema, schemaAt);
      if ('example' in media) examples.push({ at: schemaAt, example: media.example });
      for (const e of Object.values(isNode(media.examples) ? media.examples : {}))
        if (isNode(e) && 'value' in e) examples.push({ at: schemaAt, example: e.value });
      check(schemaAt, examples);
    }
  };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(isNode(item) ? item : {})) {
      if (!isNode(op)) continue;
      const opAt = pointer('paths', path, method);
      if (isNode(op.requestBody)) checkContent(op.requestBody.content, `${opAt}${pointer('requestBody', 'content')}`);
      for (const [status, response] of Object.entries(isNode(op.responses) ? op.responses : {})) {
        if (isNode(response)) checkContent(response.content, `${opAt}${pointer('responses', status, 'content')}`);
      }
      (Array.isArray(op.parameters) ? op.parameters : []).forEach((p, i) => {
        // A shared parameter (`$ref`) is checked once, among the components.
        if (isNode(p) && !('$ref' in p)) check(`${opAt}${pointer('parameters', i, 'schema')}`, []);
      });
    }
  }
  const components = doc.components ?? {};
  for (const [name, schema] of Object.entries(isNode(components.schemas) ? components.schemas : {})) {
    const at = pointer('components', 'schemas', name);
    check(at, schemaExamples(schema, at));
  }
  for (const [name, parameter] of Object.entries(isNode(components.parameters) ? components.parameters : {})) {
    if (isNode(parameter)) check(pointer('components', 'parameters', name, 'schema'), []);
  }
  for (const [name, response] of Object.entries(isNode(components.responses) ? components.responses : {})) {
    if (isNode(response)) checkContent(response.content, pointer('components', 'responses', name, 'content'));
  }
  return problems;
}

/**
 * What the request side of an OpenAPI document leaves unsaid: parameters and request-body fields
 * (nested objects and array items included) without a description, and request bodies without an
 * example. Each gap reads `METHOD /path: what`.
 */
export function requestDocGaps(doc: { paths?: Node; components?: Node }): string[] {
  const gaps: string[] = [];
  const schemas = isNode(doc.components?.schemas) ? doc.components.schemas : {};
  const parameters = isNode(doc.components?.parameters) ? doc.components.parameters : {};
  const parameter = (p: unknown): Node | undefined => {
    const ref = isNode(p) && typeof p.$ref === 'string' ? p.$ref.match(/^#\/components\/parameters\/(.+)$/) : null;
    return ref ? parameter(parameters[ref[1]!]) : isNode(p) ? p : undefined;
  };
  const resolve = (s: unknown): Node | undefined => {
    if (!isNode(s)) return undefined;
    const ref = typeof s.$ref === 'string' ? s.$ref.match(/^#\/components\/schemas\/(.+)$/) : null;
    return ref ? resolve(schemas[ref[1]!]) : s;
  };
  const fields = (s: unknown, at: string, add: (what: string) => void, seen = new Set<Node>()) => {
    const node = resolve(s);
    if (!node || seen.has(node)) return;
    seen.add(node);
    for (const [name, field] of Object.entries(isNode(node.properties) ? node.properties : {})) {
      const f = resolve(field);
      const described = (isNode(field) && typeof field.description === 'string') || (f && typeof f.description === 'string');
      if (!described) add(`field ${at}${name}`);
      fields(field, `${at}${name}.`, add, seen);
    }
    for (const key of ['items', 'additionalProperties']) if (isNode(node[key])) fields(node[key], `${at}${key === 'items' ? '[].' : '*.'}`, add, seen);
    for (const key of ['allOf', 'anyOf', 'oneOf']) for (const sub of Array.isArray(node[key]) ? (node[key] as unknown[]) : []) fields(sub, at, add, seen);
  };
  const hasExample = (s: unknown, seen = new Set<Node>()): boolean => {
    const node = resolve(s);
    if (!node || seen.has(node)) return false;
    seen.add(node);
    if ('example' in node || 'examples' in node) return true;
    return ['allOf', 'anyOf', 'oneOf'].some((k) => Array.isArray(node[k]) && (node[k] as unknown[]).every((sub) => hasExample(sub, seen)));
  };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(isNode(item) ? item : {})) {
      if (!isNode(op)) continue;
      const add = (what: string) => gaps.push(`${method.toUpperCase()} ${path}: ${what}`);
      for (const p of (Array.isArray(op.parameters) ? op.parameters : []).map(parameter)) {
        if (p && typeof p.description !== 'string' && typeof resolve(p.schema)?.description !== 'string') add(`${p.in} parameter ${p.name}`);
      }
      const content = isNode(op.requestBody) && isNode(op.requestBody.content) ? op.requestBody.content : {};
      for (const [type, media] of Object.entries(content)) {
        if (!isNode(media)) continue;
        fields(media.schema, '', (what) => add(`${type} ${what}`));
        const raw = isNode(media.schema) && Object.keys(media.schema).length === 0;
        if (!raw && !('example' in media) && !('examples' in media) && !hasExample(media.schema)) add(`${type} body has no example`);
      }
    }
  }
  return [...new Set(gaps)];
}
