import { ForbiddenError, MAX_AVATAR_BYTES, type Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { email, id, idParam, pagedQuery } from '../http/schemas.js';

const profile = z.enum(['user', 'admin', 'super']);
const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/).nullable();
const userFields = {
  name: z.string().trim().min(2).max(120),
  email,
  password: z.string().min(8).max(128),
  profile,
  allTicket: z.enum(['enable', 'disable']),
  startWork: timeOfDay,
  endWork: timeOfDay,
  farewellMessage: z.string().max(4000).nullable(),
};

/** Users: the admin's user management and each user's own profile. */
export function userRoutes(app: Application) {
  const tag = 'Users';
  const userIdParam = idParam('userId');
  return [
    route({
      method: 'GET', path: '/users', auth: 'isAuth', tag, summary: 'Page through the company users',
      query: pagedQuery.extend({ companyId: id.optional() }),
      handler: async ({ actor, query }) => app.listUsers.execute({ actor, ...query }),
    }),
    route({
      method: 'GET', path: '/users/list', auth: 'isAuth', tag, summary: 'Every user of the company, for pickers',
      query: z.object({ companyId: id.optional() }),
      handler: async ({ actor, query }) => app.listUsersForPicker.execute({ actor, companyId: query.companyId }),
    }),
    route({
      method: 'POST', path: '/users', auth: 'isAuth', tag, summary: 'Create a user', status: 201,
      body: z.object({ ...userFields, profile: profile.optional(), companyId: id.optional(), allTicket: userFields.allTicket.optional(),
        startWork: timeOfDay.optional(), endWork: timeOfDay.optional(), farewellMessage: userFields.farewellMessage.optional() }),
      handler: async ({ actor, body }) => app.createUser.execute({ actor, ...body }),
    }),
    route({
      method: 'PUT', path: '/users/:userId', auth: 'isAuth', tag, summary: 'Update a user (also how the default password is changed)',
      params: userIdParam, duringPasswordChange: true,
      body: z.object({
        ...Object.fromEntries(Object.entries(userFields).map(([k, v]) => [k, v.optional()])) as { [K in keyof typeof userFields]: z.ZodOptional<(typeof userFields)[K]> },
        defaultTheme: z.enum(['light', 'dark']).optional(),
        defaultMenu: z.enum(['open', 'closed']).optional(),
      }),
      handler: async ({ actor, mustChangePassword, params, body }) => {
        // Until the default password is replaced, the only change allowed is a new password for oneself.
        if (mustChangePassword && (params.userId !== actor.userId || body.password === undefined)) {
          throw new ForbiddenError('ERR_PASSWORD_CHANGE_REQUIRED');
        }
        return app.updateUser.execute({ actor, userId: params.userId, ...body });
      },
    }),
    route({
      method: 'GET', path: '/users/:userId', auth: 'isAuth', tag, summary: 'Show a user', params: userIdParam,
      handler: async ({ actor, params }) => app.showUser.execute({ actor, userId: params.userId }),
    }),
    route({
      method: 'DELETE', path: '/users/:userId', auth: 'isAuth', tag, summary: 'Delete a user', params: userIdParam,
      handler: async ({ actor, params }) => {
        await app.deleteUser.execute({ actor, userId: params.userId });
        return { message: 'User deleted' };
      },
    }),
    route({
      method: 'POST', path: '/users/:userId/media-upload', auth: 'isAuth', tag, summary: 'Upload a profile picture (field `profileImage`)',
      params: userIdParam, multipart: { fileFields: ['profileImage', 'file'], maxFileBytes: MAX_AVATAR_BYTES, maxFiles: 1 },
      handler: async ({ actor, params, multipart }) =>
        app.setUserAvatar.execute({ actor, userId: params.userId, file: (multipart.files.profileImage ?? multipart.files.file)?.[0] }),
    }),
    route({
      method: 'PUT', path: '/users/toggleChangeWidht/:userId', auth: 'isAuth', tag, summary: 'Set or toggle the ticket list width',
      params: userIdParam, body: z.object({ defaultTicketsManagerWidth: z.number().int().optional() }),
      handler: async ({ actor, params, body }) => app.setTicketsManagerWidth.execute({ actor, userId: params.userId, width: body.defaultTicketsManagerWidth }),
    }),
  ];
}
