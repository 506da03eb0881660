import { expect } from 'chai';
import { z } from 'zod';
import { route } from '../src/index.js';

/**
 * Compile-time checks (`tsc -b` type-checks tests): a handler's result is held to its route's
 * response schema as JSON, i.e. what `JSON.stringify` makes of it.
 */
const tag = z.object({ id: z.number(), name: z.string(), createdAt: z.iso.datetime(), color: z.string().nullable().optional() });
interface DomainTag {
  readonly id: number;
  readonly name: string;
  readonly createdAt: Date;
  readonly internal: boolean;
}
const tags: readonly DomainTag[] = [];

const accepted = [
  // A domain object fits: a Date where the JSON has a string, readonly arrays, fields the schema leaves out.
  route({
    method: 'GET',
    path: '/tags',
    auth: 'isAuth',
    tag: 't',
    summary: 's',
    query: z.object({ q: z.string().optional() }),
    response: z.object({ tags: z.array(tag), count: z.number() }),
    handler: async ({ query }) => ({ tags: tags.filter((t) => t.name === query.q), count: tags.length }),
  }),
  route({
    method: 'POST',
    path: '/tags',
    auth: 'isAuth',
    tag: 't',
    summary: 's',
    status: 201,
    body: z.object({ name: z.string() }),
    response: tag,
    handler: async ({ body }) => ({ id: 1, name: body.name, createdAt: new Date() }),
  }),
  route({ method: 'DELETE', path: '/tags/:id', auth: 'isAuth', tag: 't', summary: 's', status: 204, handler: async () => undefined }),
  // Without a response schema (routes not described yet), anything goes.
  route({ method: 'GET', path: '/other', auth: 'isAuth', tag: 't', summary: 's', handler: async () => 42 }),
];

const refused = [
  // @ts-expect-error `name` is a string in the schema
  route({ method: 'GET', path: '/a', auth: 'none', tag: 't', summary: 's', response: tag, handler: async () => ({ id: 1, name: 2, createdAt: 'x' }) }),
  // @ts-expect-error `count` is missing
  route({ method: 'GET', path: '/b', auth: 'none', tag: 't', summary: 's', response: z.object({ count: z.number() }), handler: async () => ({}) }),
  // @ts-expect-error a 204 route answers no body
  route({ method: 'DELETE', path: '/c', auth: 'none', tag: 't', summary: 's', status: 204, handler: async () => ({ message: 'deleted' }) }),
];

describe('Route typing', () => {
  it('is checked by the compiler (see the @ts-expect-error lines)', () => {
    expect(accepted).to.have.length(4);
    expect(refused).to.have.length(3);
  });
});
