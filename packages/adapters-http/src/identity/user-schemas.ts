import { z } from 'zod';

/** The JSON views of the identity feature (users and their sessions), shared by every route that answers them. */

const timestamp = z.iso.datetime();
const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);

export const profileSchema = z.enum(['user', 'admin']).meta({
  id: 'Profile',
  description: 'What a user may do: `user` (operator) or `admin` (manages the company); a super user (manages the platform) is an `admin` with `super: true`',
  example: 'admin',
});

/** A preference the client reads to shape its screens; the server's rules (ticket visibility, who may close) do not change with it. */
const enabledDisabled = (what: string) =>
  z.enum(['enabled', 'disabled']).meta({ description: `${what} (a client preference: the server's rules do not read it)` });

const userViewExample = {
  id: 7,
  companyId: 1,
  name: 'Maria Souza',
  email: 'maria@acme.com.br',
  profile: 'admin' as const,
  mustChangePassword: false,
  online: true,
  profileImage: '7-1f0c.png',
  allTicket: 'enable' as const,
  defaultTicketsManagerWidth: 550,
  defaultTheme: 'light' as const,
  defaultMenu: 'open' as const,
  startWork: '08:00',
  endWork: '18:00',
  farewellMessage: null,
  chatappId: 2,
  allHistoric: 'disabled' as const,
  allUserChat: 'disabled' as const,
  userClosePendingTicket: 'enabled' as const,
  showDashboard: 'disabled' as const,
  allowRealTime: 'disabled' as const,
  allowConnections: 'disabled' as const,
  allowGroup: false,
  super: false,
  lastLoginAt: '2025-01-31T12:00:00.000Z',
  createdAt: '2025-01-02T09:30:00.000Z',
  updatedAt: '2025-01-31T12:00:00.000Z',
};

/** `toUserView`: a user as the API shows it, never with its password hash or token version. */
export const userViewSchema = z
  .object({
    id: z.number().int().positive(),
    companyId: z.number().int().positive().meta({ description: 'The company the user belongs to' }),
    name: z.string(),
    email: z.string().meta({ description: 'The login, unique across the platform (lower case)' }),
    profile: profileSchema,
    mustChangePassword: z.boolean().meta({ description: 'Seeded with the default password: only a password change is allowed until it is replaced' }),
    online: z.boolean(),
    profileImage: z.string().nullable().meta({ description: 'File name of the profile picture, served at `/public/company<companyId>/user/<profileImage>`' }),
    allTicket: z.enum(['enable', 'disable']).meta({ description: '`enable`: sees the tickets of queues they are not in' }),
    defaultTicketsManagerWidth: z.number().int().meta({ description: 'Width of the ticket list, in pixels' }),
    defaultTheme: z.enum(['light', 'dark']),
    defaultMenu: z.enum(['open', 'closed']),
    startWork: timeOfDay.nullable().meta({ description: 'Start of the working day (HH:MM)' }),
    endWork: timeOfDay.nullable().meta({ description: 'End of the working day (HH:MM)' }),
    farewellMessage: z.string().nullable().meta({ description: 'Sent to the contact when the user closes a ticket' }),
    chatappId: z.number().int().positive().nullable().meta({ description: "The user's default connection (the lineage's `whatsappId`), null for none" }),
    allHistoric: enabledDisabled("`enabled`: sees the whole history of a contact's tickets"),
    allUserChat: enabledDisabled("`enabled`: an operator sees every user's tickets, as an admin does"),
    userClosePendingTicket: enabledDisabled('`enabled`: may close pending tickets'),
    showDashboard: enabledDisabled('`enabled`: an operator sees the dashboard'),
    allowRealTime: enabledDisabled('`enabled`: an operator sees the real-time panel'),
    allowConnections: enabledDisabled('`enabled`: an operator manages connections'),
    allowGroup: z.boolean().meta({ description: 'Sees the group conversations tab' }),
    super: z.boolean().meta({ description: 'A super user (manages the platform); its `profile` reads `admin`' }),
    lastLoginAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'User', description: 'A platform user, without credentials', example: userViewExample });

const userQueueExample = { id: 4, name: 'Suporte', color: '#0055ff', UserQueue: { userId: 7, queueId: 4 } };
const userCompanyExample = {
  id: 1,
  name: 'Acme Atendimento',
  email: 'contato@acme.com.br',
  phone: null,
  document: null,
  status: true,
  planId: 2,
  dueDate: '2025-02-28',
  recurrence: 'MENSAL',
  paymentMethod: null,
};

/** `UserDetails`: a user with their queues and company, as the session, the user routes and `user` events carry them. */
export const userDetailsSchema = userViewSchema
  .extend({
    queues: z
      .array(
        z.object({
          id: z.number().int().positive(),
          name: z.string(),
          color: z.string(),
          UserQueue: z.object({ userId: z.number().int().positive(), queueId: z.number().int().positive() }).meta({ description: 'The link row' }),
        }),
      )
      .meta({ description: 'The queues the user belongs to, by queue order' }),
    company: z
      .object({
        id: z.number().int().positive(),
        name: z.string(),
        email: z.string().nullable(),
        phone: z.string().nullable(),
        document: z.string().nullable(),
        status: z.boolean(),
        planId: z.number().int().positive(),
        dueDate: z.string().nullable().meta({ description: 'Day (YYYY-MM-DD) the company is paid until; the frontend warns and locks from it' }),
        recurrence: z.string(),
        paymentMethod: z.string().nullable(),
      })
      .nullable()
      .meta({ description: "The user's company (null only if it is gone)" }),
  })
  .meta({
    id: 'UserDetails',
    description: 'A platform user with their queues and company, without credentials',
    example: { ...userViewExample, queues: [userQueueExample], company: userCompanyExample },
  });

/** `ListUsers`: one page of the company's users. */
export const userPageSchema = z
  .object({
    users: z.array(userDetailsSchema),
    count: z.number().int().nonnegative().meta({ description: 'Users matching the search, all pages' }),
    hasMore: z.boolean().meta({ description: 'Whether a next page exists' }),
  })
  .meta({
    id: 'UserPage',
    description: 'A page of users',
    example: { users: [{ ...userViewExample, queues: [userQueueExample], company: userCompanyExample }], count: 1, hasMore: false },
  });

/** `ListUsersForPicker`: the few fields a transfer or assignment picker needs. */
export const userSummarySchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    email: z.string(),
    profile: z.string().meta({ description: "The user's profile: `user` or `admin` (see `Profile`)", example: 'admin' }),
    online: z.boolean(),
  })
  .meta({
    id: 'UserSummary',
    description: 'A user, trimmed for pickers',
    example: { id: 7, name: 'Maria Souza', email: 'maria@acme.com.br', profile: 'admin', online: true },
  });

const accessToken = z.string().meta({
  description: 'The access token (JWT), sent as `Authorization: Bearer <token>`; the refresh token travels in the `jrt` httpOnly cookie (path `/auth`)',
  example: 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOjd9.c2lnbmF0dXJl',
});

/** `POST /auth/login`. */
export const loginResultSchema = z
  .object({
    token: accessToken,
    user: userDetailsSchema,
    mustChangePassword: z.boolean().meta({ description: 'Same as `user.mustChangePassword`: the frontend must ask for a new password first' }),
  })
  .meta({
    id: 'LoginResult',
    description: 'A new session: the access token and the signed-in user',
    example: {
      token: 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOjd9.c2lnbmF0dXJl',
      user: { ...userViewExample, queues: [userQueueExample], company: userCompanyExample },
      mustChangePassword: false,
    },
  });

/** `POST /auth/refresh_token`. */
export const refreshResultSchema = z
  .object({
    token: accessToken,
    user: userDetailsSchema,
  })
  .meta({
    id: 'RefreshResult',
    description: 'A new access token after the refresh cookie was rotated',
    example: {
      token: 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOjd9.c2lnbmF0dXJl',
      user: { ...userViewExample, queues: [userQueueExample], company: userCompanyExample },
    },
  });
