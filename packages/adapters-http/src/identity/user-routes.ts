import { ForbiddenError, fromWireProfile, MAX_AVATAR_BYTES, type Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { email, formBoolean, id, idParam, pagedQuery } from '../http/schemas.js';
import { userDetailsSchema, userPageSchema, userSummarySchema, userViewSchema } from './user-schemas.js';

const userEvent = "Emits the realtime event `user` with `{ action: '%', user }` to the company.";
const notFound = { status: 404, codes: ['ERR_NO_USER_FOUND'] } as const;

/** `admin` with `super: true` is how the lineage's client sends a super user back; `super` is accepted too. */
const profile = z.enum(['user', 'admin', 'super']);
const timeOfDay = z.union([z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/), z.literal('').transform(() => null)]).nullable();
const enabledDisabled = z.enum(['enabled', 'disabled']);
/** The default connection: an id, or `''` / `false` / null for none (what the lineage's select sends when nothing is chosen). */
const chatappId = z.union([id, z.literal(''), z.literal(false), z.null()]).transform((v) => (typeof v === 'number' ? v : null));

/** What the user form sends besides the credentials; fields it sends back that are read-only (`id`, `online`, `queues`...) are ignored. */
const formFields = {
  allTicket: z.enum(['enable', 'disable']).optional(),
  startWork: timeOfDay.optional(),
  endWork: timeOfDay.optional(),
  farewellMessage: z.string().max(4000).nullable().optional(),
  defaultTheme: z.enum(['light', 'dark']).optional(),
  defaultMenu: z.enum(['open', 'closed']).optional(),
  chatappId: chatappId.optional(),
  allHistoric: enabledDisabled.optional(),
  allUserChat: enabledDisabled.optional(),
  userClosePendingTicket: enabledDisabled.optional(),
  showDashboard: enabledDisabled.optional(),
  allowRealTime: enabledDisabled.optional(),
  allowConnections: enabledDisabled.optional(),
  allowGroup: formBoolean.optional(),
  /** With `profile: 'admin'`: a super user. */
  super: z.boolean().optional(),
  queueIds: z.array(id).max(500).optional(),
};

/** The profile the body means (`admin` + `super: true` is a super user), without the wire-only `super` flag. */
function withProfile<T extends { profile?: z.infer<typeof profile>; super?: boolean }>(body: T): Omit<T, 'super'> {
  const { super: superFlag, ...rest } = body;
  return rest.profile === undefined ? rest : { ...rest, profile: fromWireProfile(rest.profile, superFlag) };
}

const formErrors = { status: 404, codes: ['ERR_NO_COMPANY_FOUND', 'ERR_NO_CONNECTION_FOUND', 'ERR_QUEUE_NOT_FOUND'] } as const;

/** Users: the admin's user management and each user's own profile. */
export function userRoutes(app: Pick<Application, 'identity'>) {
  const tag = 'Users';
  const userIdParam = idParam('userId');
  return [
    route({
      method: 'GET',
      path: '/users',
      auth: 'isAuth',
      tag,
      summary: 'Page through the company users',
      description: 'Admins (and super users, who may pass another `companyId`). Searchable by name or e-mail; pages of 20.',
      query: pagedQuery.extend({ companyId: id.optional() }),
      response: userPageSchema,
      errors: [{ status: 403, codes: ['ERR_NO_PERMISSION'] }],
      handler: async ({ actor, query }) => app.identity.listUsers.execute({ actor, ...query }),
    }),
    route({
      method: 'GET',
      path: '/users/list',
      auth: 'isAuth',
      tag,
      summary: 'Every user of the company, for pickers',
      description:
        "Any signed-in user: the company's users trimmed to what transfer and assignment pickers need " + '(super users may pass another `companyId`).',
      query: z.object({ companyId: id.optional() }),
      response: z.array(userSummarySchema).meta({
        id: 'UserSummaryList',
        description: 'Every user of the company',
        example: [{ id: 7, name: 'Maria Souza', email: 'maria@acme.com.br', profile: 'admin', online: true }],
      }),
      handler: async ({ actor, query }) => app.identity.listUsersForPicker.execute({ actor, companyId: query.companyId }),
    }),
    route({
      method: 'POST',
      path: '/users',
      auth: 'isAuth',
      tag,
      summary: 'Create a user',
      status: 201,
      body: z.object({
        name: z.string().trim().min(2).max(120),
        email,
        password: z.string().min(8).max(128),
        profile: profile.optional(),
        companyId: id.optional(),
        ...formFields,
      }),
      description:
        'Admins, in their company (super users in any, with `companyId`); nobody grants a profile above their own, ' +
        "and the plan's user limit applies. `queueIds` are the queues the user joins, `chatappId` the default connection " +
        '(`""`, `false` or null: none); a super user is `profile: "admin"` with `super: true`. ' +
        userEvent.replace('%', 'create'),
      response: userDetailsSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION', 'ERR_USER_CREATION_COUNT'] },
        formErrors,
        { status: 409, codes: ['ERR_EMAIL_ALREADY_EXISTS'] },
        { status: 422, codes: ['ERR_INVALID_NAME', 'ERR_INVALID_EMAIL', 'ERR_PASSWORD_TOO_SHORT', 'ERR_PASSWORD_TOO_LONG'] },
      ],
      handler: async ({ actor, body }) => app.identity.createUser.execute({ actor, ...withProfile(body) }),
    }),
    route({
      method: 'PUT',
      path: '/users/:userId',
      auth: 'isAuth',
      tag,
      summary: 'Update a user (also how the default password is changed)',
      params: userIdParam,
      duringPasswordChange: true,
      body: z.object({
        name: z.string().trim().min(2).max(120).optional(),
        email: email.optional(),
        /** `""` (what the edit form sends when the field is left empty): unchanged. */
        password: z
          .string()
          .max(128)
          .transform((v) => (v === '' ? undefined : v))
          .optional(),
        profile: profile.optional(),
        ...formFields,
      }),
      description:
        'Anyone edits themself (but not their own profile or queues); admins edit the users of their company, up to their own profile. ' +
        'The edit form\'s body is accepted as the client sends it: `password: ""` leaves the password unchanged, read-only fields sent back ' +
        "are ignored, `queueIds` (admins only) replaces the user's queues. " +
        "A new password clears `mustChangePassword`: until then this is the only call allowed, and only for one's own password. " +
        "A new password or profile ends every session of the user at once (the caller's own included: log in again). " +
        userEvent.replace('%', 'update'),
      response: userDetailsSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION', 'ERR_CANNOT_CHANGE_OWN_PROFILE', 'ERR_PASSWORD_CHANGE_REQUIRED'] },
        { status: 404, codes: ['ERR_NO_USER_FOUND', 'ERR_NO_CONNECTION_FOUND', 'ERR_QUEUE_NOT_FOUND'] },
        { status: 409, codes: ['ERR_EMAIL_ALREADY_EXISTS'] },
        { status: 422, codes: ['ERR_INVALID_NAME', 'ERR_INVALID_EMAIL', 'ERR_PASSWORD_TOO_SHORT', 'ERR_PASSWORD_TOO_LONG'] },
      ],
      handler: async ({ actor, mustChangePassword, params, body }) => {
        // Until the default password is replaced, the only change allowed is a new password for oneself.
        if (mustChangePassword && (params.userId !== actor.userId || body.password === undefined)) {
          throw new ForbiddenError('ERR_PASSWORD_CHANGE_REQUIRED');
        }
        return app.identity.updateUser.execute({ actor, userId: params.userId, ...withProfile(body) });
      },
    }),
    route({
      method: 'GET',
      path: '/users/:userId',
      auth: 'isAuth',
      tag,
      summary: 'Show a user',
      params: userIdParam,
      description: 'Anyone sees themself; admins see the users of their company, super users any user. With their queues and company.',
      response: userDetailsSchema,
      errors: [{ status: 403, codes: ['ERR_NO_PERMISSION'] }, notFound],
      handler: async ({ actor, params }) => app.identity.showUser.execute({ actor, userId: params.userId }),
    }),
    route({
      method: 'DELETE',
      path: '/users/:userId',
      auth: 'isAuth',
      tag,
      summary: 'Delete a user',
      params: userIdParam,
      description:
        'Admins, for users of their company up to their own profile; nobody deletes themself. Revokes every session of the user. ' +
        "Emits the realtime event `user` with `{ action: 'delete', userId }` to the company.",
      response: z
        .object({ message: z.string().meta({ example: 'User deleted' }) })
        .meta({ id: 'UserDeleted', description: 'The user was deleted', example: { message: 'User deleted' } }),
      errors: [{ status: 403, codes: ['ERR_NO_PERMISSION', 'ERR_CANNOT_DELETE_SELF'] }, notFound],
      handler: async ({ actor, params }) => {
        await app.identity.deleteUser.execute({ actor, userId: params.userId });
        return { message: 'User deleted' };
      },
    }),
    route({
      method: 'POST',
      path: '/users/:userId/media-upload',
      auth: 'isAuth',
      tag,
      summary: 'Upload a profile picture (field `profileImage`)',
      params: userIdParam,
      multipart: { fileFields: ['profileImage', 'file'], maxFileBytes: MAX_AVATAR_BYTES, maxFiles: 1 },
      description:
        'Multipart, one PNG, JPEG, WebP or GIF image up to 2 MiB (the content is sniffed, not the name). Oneself, or an admin for the users ' +
        'of their company; the previous picture is removed. Answers `{ user }` with the new `profileImage`, a file name served at ' +
        '`/public/company<companyId>/user/<profileImage>`. ' +
        userEvent.replace('%', 'update'),
      response: z.object({ user: userDetailsSchema }).meta({ id: 'UserAvatarSet', description: 'The user with the new picture' }),
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        notFound,
        { status: 413, codes: ['ERR_FILE_TOO_LARGE'] },
        { status: 422, codes: ['ERR_NO_FILE', 'ERR_FILE_TYPE_NOT_ALLOWED'] },
      ],
      handler: async ({ actor, params, multipart }) => ({
        user: await app.identity.setUserAvatar.execute({ actor, userId: params.userId, file: (multipart.files.profileImage ?? multipart.files.file)?.[0] }),
      }),
    }),
    route({
      method: 'PUT',
      path: '/users/toggleChangeWidht/:userId',
      auth: 'isAuth',
      tag,
      summary: 'Set or toggle the ticket list width',
      params: userIdParam,
      body: z.object({ defaultTicketsManagerWidth: z.number().int().optional() }),
      description:
        'Oneself, or an admin for the users of their company. Sets the width (300 to 1200 pixels), or without one toggles ' +
        'between the wide (550) and the narrow (400) layout. Answers the updated user.',
      response: userViewSchema,
      errors: [{ status: 403, codes: ['ERR_NO_PERMISSION'] }, notFound, { status: 422, codes: ['ERR_INVALID_WIDTH'] }],
      handler: async ({ actor, params, body }) =>
        app.identity.setTicketsManagerWidth.execute({ actor, userId: params.userId, width: body.defaultTicketsManagerWidth }),
    }),
  ];
}
