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

/** How a form field's absence reads: a new user gets the default, an edit leaves the field as it is. */
const absent = (byDefault: string) => `absent: ${byDefault} for a new user, unchanged on an edit`;
/** A switch the client reads to shape its screens; the server stores it and its rules do not read it. */
const clientSwitch = (what: string, byDefault: 'enabled' | 'disabled') =>
  enabledDisabled
    .optional()
    .meta({ description: `\`enabled\`: ${what} (a client preference: the server's rules do not read it); ${absent(`\`${byDefault}\``)}` });

/** What the user form sends besides the credentials; fields it sends back that are read-only (`id`, `online`, `queues`...) are ignored. */
const formFields = {
  allTicket: z
    .enum(['enable', 'disable'])
    .optional()
    .meta({
      description: `\`enable\`: the user sees every ticket of the company, as an admin does (changing only unassigned ones and their own); ${absent('`disable`')}`,
      example: 'disable',
    }),
  startWork: timeOfDay
    .optional()
    .meta({ description: `Start of the working day, \`HH:mm\` (stored for the client); \`""\` or null: none; ${absent('none')}`, example: '08:00' }),
  endWork: timeOfDay
    .optional()
    .meta({ description: `End of the working day, \`HH:mm\` (stored for the client); \`""\` or null: none; ${absent('none')}`, example: '18:00' }),
  farewellMessage: z
    .string()
    .max(4000)
    .nullable()
    .optional()
    .meta({
      description: `The user's farewell text, stored for the client (the message sent when a ticket closes is the connection's); null: none; ${absent('none')}`,
    }),
  defaultTheme: z
    .enum(['light', 'dark'])
    .optional()
    .meta({ description: `The client's colour theme for the user; ${absent('`light`')}`, example: 'light' }),
  defaultMenu: z
    .enum(['open', 'closed'])
    .optional()
    .meta({ description: `Whether the client's side menu starts open or closed; ${absent('`open`')}`, example: 'open' }),
  chatappId: chatappId.optional().meta({
    description: `The user's default connection (the lineage's \`whatsappId\`), one of the company's; \`""\`, \`false\` or null: none; ${absent('none')}`,
    example: 2,
  }),
  allHistoric: clientSwitch("sees the whole history of a contact's tickets", 'disabled'),
  allUserChat: clientSwitch("sees every user's tickets", 'disabled'),
  userClosePendingTicket: clientSwitch('may close pending tickets', 'enabled'),
  showDashboard: enabledDisabled.optional().meta({
    description: `\`enabled\`: an operator may read the dashboard and the contacts report of the whole company; ${absent('`disabled`')}`,
  }),
  allowRealTime: clientSwitch('an operator sees the real-time panel', 'disabled'),
  allowConnections: clientSwitch('an operator manages connections', 'disabled'),
  allowGroup: formBoolean.optional().meta({
    description: `Whether the client shows the user the group conversations tab: true/false, or \`"true"\`/\`"false"\`/\`"1"\`/\`"0"\`; ${absent('false')}`,
  }),
  /** With `profile: 'admin'`: a super user. */
  super: z
    .boolean()
    .optional()
    .meta({ description: 'With `profile: "admin"`, true makes a super user (manages the platform); only a super user may grant it' }),
  queueIds: z.array(id).max(500).optional().meta({
    description:
      "The company's queues the user works in, replacing the current ones (admins only: ignored from others); absent: none for a new user, unchanged on an edit",
  }),
};
const profileField = profile.optional().meta({
  description:
    '`user` (operator) or `admin`; `super` is accepted for a super user; nobody grants more than their own; absent: `user` for a new user, unchanged on an edit',
});
const USER_EXAMPLE = {
  name: 'Maria Souza',
  email: 'maria@acme.com.br',
  password: 'S3nha-forte!',
  profile: 'user',
  startWork: '08:00',
  endWork: '18:00',
  chatappId: 2,
  showDashboard: 'disabled',
  queueIds: [1, 3],
};

/** The profile the body means (`admin` + `super: true` is a super user), without the wire-only `super` flag. */
function withProfile<T extends { profile?: z.infer<typeof profile>; super?: boolean }>(body: T): Omit<T, 'super'> {
  const { super: superFlag, ...rest } = body;
  return rest.profile === undefined ? rest : { ...rest, profile: fromWireProfile(rest.profile, superFlag) };
}

const companyFilter = id.optional().meta({ description: "Super users: another company's users; ignored for everyone else (their own company's)", example: 3 });

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
      query: pagedQuery.extend({ companyId: companyFilter }),
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
      query: z.object({ companyId: companyFilter }),
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
      body: z
        .object({
          name: z.string().trim().min(2).max(120).meta({ description: "The user's name, trimmed", example: 'Maria Souza' }),
          email: email.meta({ description: 'The login, unique across the platform; stored lower case', example: 'maria@acme.com.br' }),
          password: z.string().min(8).max(128).meta({ description: 'The first password, 8 to 128 characters', example: 'S3nha-forte!' }),
          profile: profileField,
          companyId: id.optional().meta({ description: "Super users: the company the user joins; ignored for others (the caller's company)", example: 3 }),
          ...formFields,
        })
        .meta({ example: USER_EXAMPLE }),
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
      body: z
        .object({
          name: z.string().trim().min(2).max(120).optional().meta({ description: "The user's name, trimmed; absent: unchanged", example: 'Maria Souza' }),
          email: email
            .optional()
            .meta({ description: 'The login, unique across the platform; stored lower case; absent: unchanged', example: 'maria@acme.com.br' }),
          /** `""` (what the edit form sends when the field is left empty): unchanged. */
          password: z
            .string()
            .max(128)
            .transform((v) => (v === '' ? undefined : v))
            .optional()
            .meta({
              description: 'A new password, 8 to 128 characters (ends every session of the user); `""` or absent: unchanged',
              example: 'N0va-senha!',
            }),
          profile: profileField,
          ...formFields,
        })
        .meta({ example: { name: 'Maria Souza', password: '', allTicket: 'enable', queueIds: [1, 3] } }),
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
      body: z.object({}).meta({ description: 'No form field besides the image (`profileImage`, or `file`); others are ignored', example: {} }),
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
      body: z
        .object({
          defaultTicketsManagerWidth: z
            .number()
            .int()
            .optional()
            .meta({ description: 'Width of the ticket list, 300 to 1200 pixels; absent: toggles between 550 and 400', example: 400 }),
        })
        .meta({ example: { defaultTicketsManagerWidth: 400 } }),
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
