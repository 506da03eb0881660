import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { z } from 'zod';
import { deriveOperationId, derivedErrorStatuses, operationIds, route, type RouteSpec } from '../src/index.js';
import { buildOpenApi } from '../src/http/openapi.js';

const handler = async () => undefined;
const tag = z.object({ id: z.number().int(), name: z.string() }).meta({ id: 'UnitTag', example: { id: 1, name: 'vip' } });

const routes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/tags',
    auth: 'isAuth',
    tag: 'Tags',
    summary: 'List tags',
    query: z.object({ searchParam: z.string().optional() }),
    response: z.object({ tags: z.array(tag), count: z.number().int() }),
    handler: async () => ({ tags: [], count: 0 }),
  }),
  route({
    method: 'POST',
    path: '/tags',
    auth: 'isAuth',
    tag: 'Tags',
    summary: 'Create a tag',
    status: 201,
    feature: 'kanban',
    description: 'Creates a tag.\n\nNames are unique per company.',
    body: z.object({ name: z.string().min(1) }),
    response: tag,
    errors: [{ status: 409, codes: ['ERR_TAG_NAME_ALREADY_EXISTS'] }],
    handler: async ({ body }) => ({ id: 1, name: body.name }),
  }),
  route({
    method: 'DELETE',
    path: '/tags/:tagId',
    auth: 'isAuth',
    tag: 'Tags',
    summary: 'Delete a tag',
    status: 204,
    params: z.object({ tagId: z.coerce.number().int() }),
    handler: async () => undefined,
  }),
  route({
    method: 'POST',
    path: '/users/:userId/media-upload',
    auth: 'isAuth',
    tag: 'Users',
    summary: 'Upload an avatar',
    operationId: 'uploadAvatar',
    multipart: { fileFields: ['file'], maxFileBytes: 1024, maxFiles: 1 },
    body: z.object({ caption: z.string().optional() }),
    handler,
  }),
  route({ method: 'POST', path: '/webhook/', auth: 'none', tag: 'Hooks', summary: 'Signed deliveries', raw: 2048, handler }),
  route({ method: 'POST', path: '/hook', auth: 'none', tag: 'Hooks', summary: 'Shared secret', guard: () => undefined, handler }),
  route({ method: 'GET', path: '/version', auth: 'none', tag: 'Misc', summary: 'Version', handler }),
  route({ method: 'POST', path: '/contacts/import', auth: 'isAuth', tag: 'Contacts', summary: 'a', handler }),
  route({ method: 'POST', path: '/contactsImport', auth: 'isAuth', tag: 'Contacts', summary: 'b', handler }),
];

type Doc = ReturnType<typeof buildOpenApi>;
const op = (doc: Doc, path: string, method: string) => (doc.paths as Record<string, Record<string, any>>)[path]![method]!;

describe('OpenAPI document of declared routes', () => {
  const doc = buildOpenApi(routes, { title: 'unit', version: '1.0.0' });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).to.equal(undefined);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal('3.1');
  });

  it('derives camelCase operation ids from method and path, unique even where two paths spell the same words', () => {
    expect(deriveOperationId('GET', '/tags/:tagId')).to.equal('getTagsByTagId');
    expect(deriveOperationId('DELETE', '/tags-contacts/:tagId/:contactId')).to.equal('deleteTagsContactsByTagIdAndContactId');
    expect(deriveOperationId('POST', '/auth/refresh_token')).to.equal('postAuthRefreshToken');
    expect(deriveOperationId('POST', '/')).to.equal('postRoot');
    expect(op(doc, '/contacts/import', 'post').operationId).to.equal('postContactsImport');
    expect(op(doc, '/contactsImport', 'post').operationId).to.equal('postContactsImport2');
    expect(op(doc, '/users/{userId}/media-upload', 'post').operationId).to.equal('uploadAvatar');
    expect(() => operationIds([...routes, { ...routes[3]!, path: '/other' }])).to.throw(/uploadAvatar is declared twice/);
  });

  it('gives the operation ids of the whole seed inventory without a clash', () => {
    const file = new URL('../../../spec/routes.tsv', import.meta.url);
    const seed = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'))
      .map(([method, path, auth]) => route({ method: method as 'GET', path: path!, auth: auth as 'none', tag: 't', summary: 's', handler }));
    const ids = [...operationIds(seed).values()];
    expect(ids).to.have.length(seed.length);
    expect(new Set(ids).size).to.equal(ids.length);
    for (const id of ids) expect(id).to.match(/^[a-z][A-Za-z0-9]*$/);
  });

  it('documents parameters, bodies and the success response with its schema as a component', () => {
    const list = op(doc, '/tags', 'get');
    expect(list.parameters).to.deep.equal([{ name: 'searchParam', in: 'query', required: false, schema: { type: 'string' } }]);
    expect(list.responses['200'].content['application/json'].schema.properties.tags).to.deep.equal({
      type: 'array',
      items: { $ref: '#/components/schemas/UnitTag' },
    });
    expect((doc.components!.schemas as Record<string, any>).UnitTag.example).to.deep.equal({ id: 1, name: 'vip' });
    const create = op(doc, '/tags', 'post');
    expect(create.requestBody.required).to.equal(true);
    expect(create.responses['201'].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/UnitTag' });
    // Who may call it is its `security` (and `x-auth-class`), said once in the security schemes.
    expect(create.description).to.match(/^Creates a tag\.\n\nNames are unique per company\.\n\n\*\*Plan feature\*\*: `kanban`/);
    expect(create.description).to.not.include('Auth');
    expect((doc.components!.securitySchemes as Record<string, any>).platformJwt.description).to.include('`isAuth`');
    expect(create.responses['201'].description).to.equal('Created');
    const remove = op(doc, '/tags/{tagId}', 'delete');
    expect(remove.responses['204']).to.deep.equal({ description: 'No content' });
    expect(remove.parameters[0]).to.include({ name: 'tagId', in: 'path', required: true });
  });

  it('documents a multipart body with its file fields, and a raw body', () => {
    const upload = op(doc, '/users/{userId}/media-upload', 'post');
    const schema = upload.requestBody.content['multipart/form-data'].schema;
    expect(schema.properties.caption).to.deep.equal({ type: 'string' });
    expect(schema.properties.file).to.include({ type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' });
    expect(upload.parameters).to.deep.equal([{ name: 'userId', in: 'path', required: true, description: "The user's id", schema: { type: 'string' } }]);
    expect(op(doc, '/webhook/', 'post').requestBody.description).to.include('2048 bytes');
  });

  it('derives error responses from the declaration and adds the declared ones with their codes', () => {
    const statuses = (path: string, method: string) => Object.keys(op(doc, path, method).responses).filter((s) => s >= '400');
    expect(statuses('/tags', 'get')).to.deep.equal(['401', '403', '422', '500']);
    expect(statuses('/tags', 'post')).to.deep.equal(['400', '401', '403', '409', '413', '415', '422', '500']);
    expect(statuses('/tags/{tagId}', 'delete')).to.deep.equal(['401', '403', '404', '422', '500']);
    expect(statuses('/users/{userId}/media-upload', 'post')).to.include.members(['404', '413', '415', '422']);
    expect(statuses('/webhook/', 'post')).to.deep.equal(['401', '413', '500']);
    expect(statuses('/hook', 'post')).to.deep.equal(['401', '500']);
    expect(statuses('/version', 'get')).to.deep.equal(['500']);
    expect(op(doc, '/tags', 'get').responses['401']).to.deep.equal({ $ref: '#/components/responses/Unauthorized' });
    // Written once as a component, named after its one code, and referenced.
    expect(op(doc, '/tags', 'post').responses['409']).to.deep.equal({ $ref: '#/components/responses/ERR_TAG_NAME_ALREADY_EXISTS' });
    const conflict = (doc.components!.responses as Record<string, any>).ERR_TAG_NAME_ALREADY_EXISTS;
    expect(conflict.description).to.include('`ERR_TAG_NAME_ALREADY_EXISTS`');
    expect(conflict.content['application/json'].examples).to.deep.equal({ ERR_TAG_NAME_ALREADY_EXISTS: { value: { error: 'ERR_TAG_NAME_ALREADY_EXISTS' } } });
    expect(derivedErrorStatuses(route({ method: 'GET', path: '/api/x', auth: 'isAuthCompany', tag: 't', summary: 's', handler }))).to.deep.equal([401, 500]);
  });

  it('keeps the auth class, security, tags and summary of every operation', () => {
    const create = op(doc, '/tags', 'post');
    expect(create).to.include({ summary: 'Create a tag', 'x-auth-class': 'isAuth' });
    expect(create.security).to.deep.equal([{ platformJwt: [] }]);
    expect(create.tags).to.deep.equal(['Tags']);
    expect(op(doc, '/version', 'get').security).to.deep.equal([]);
    expect(doc.tags!.map((t) => t.name)).to.deep.equal(['Tags', 'Users', 'Hooks', 'Misc', 'Contacts']);
  });

  it('writes a repeated parameter or schema once, as a component named after where it is used', () => {
    const contact = z.object({
      id: z.number().int().meta({ description: 'The contact id' }),
      name: z.string().meta({ description: "The contact's name as the company saved it" }),
      number: z.string().meta({ description: 'Digits only, with the country code' }),
    });
    // Only the document is built: no handler runs.
    const unreachable = async (): Promise<never> => {
      throw new Error('not called');
    };
    const byContact = z.object({ contactId: z.coerce.number().int().meta({ description: 'The id of the contact the path names' }) });
    const shared = buildOpenApi(
      [
        route({
          method: 'GET',
          path: '/contacts/:contactId',
          auth: 'isAuth',
          tag: 'Contacts',
          summary: 'a',
          params: byContact,
          response: z.object({ contact }),
          handler: unreachable,
        }),
        route({
          method: 'GET',
          path: '/contacts/:contactId/tickets',
          auth: 'isAuth',
          tag: 'Contacts',
          summary: 'b',
          params: byContact,
          response: z.object({ contact, tickets: z.number().int() }),
          handler: unreachable,
        }),
        // The same shape as a component declared elsewhere refers to it.
        route({
          method: 'GET',
          path: '/first-tag',
          auth: 'isAuth',
          tag: 'Tags',
          summary: 's',
          response: z.object({ tag: z.object({ id: z.number().int(), name: z.string() }).meta({ example: { id: 1, name: 'vip' } }) }),
          handler: unreachable,
        }),
        routes[0]!,
      ],
      { title: 'unit', version: '1' },
    );
    const components = shared.components as Record<string, Record<string, any>>;
    for (const path of ['/contacts/{contactId}', '/contacts/{contactId}/tickets']) {
      const get = op(shared, path, 'get');
      expect(get.parameters, path).to.deep.equal([{ $ref: '#/components/parameters/ContactId' }]);
      expect(get.responses['200'].content['application/json'].schema.properties.contact, path).to.deep.equal({ $ref: '#/components/schemas/Contact' });
    }
    expect(components.parameters!.ContactId).to.deep.include({
      name: 'contactId',
      in: 'path',
      required: true,
      description: 'The id of the contact the path names',
    });
    // The generator copies a parameter's description onto its schema: it is written on the parameter only.
    expect(components.parameters!.ContactId.schema).to.not.have.property('description');
    expect(components.schemas!.Contact.properties.number.description).to.equal('Digits only, with the country code');
    expect(op(shared, '/first-tag', 'get').responses['200'].content['application/json'].schema.properties.tag).to.deep.equal({
      $ref: '#/components/schemas/UnitTag',
    });
  });

  it('refuses a 204 route that declares a response body', () => {
    const wrong = route({ method: 'DELETE', path: '/x', auth: 'none', tag: 't', summary: 's', status: 204, response: z.object({}), handler });
    expect(() => buildOpenApi([wrong], { title: 't', version: '1' })).to.throw(/a 204 route answers no body, so it has no response schema/);
  });
});
