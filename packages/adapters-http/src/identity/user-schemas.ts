import { z } from 'zod';

/** The JSON views of the identity feature (users and their sessions), shared by every route that answers them. */

const timestamp = z.iso.datetime();
const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);

export const profileSchema = z.enum(['user', 'admin', 'super']).meta({
  id: 'Profile', description: 'What a user may do: `user` (operator), `admin` (manages the company), `super` (manages the platform)', example: 'admin',
});

const userViewExample = {
  id: 7,
  companyId: 1,
  name: 'Maria Souza',
  email: 'maria@acme.com.br',
  profile: 'admin' as const,
  mustChangePassword: false,
  online: true,
  profileImage: 'https://files.example.com/public/company-1/users/7-1f0c.png',
  allTicket: 'enable' as const,
  defaultTicketsManagerWidth: 550,
  defaultTheme: 'light' as const,
  defaultMenu: 'open' as const,
  startWork: '08:00',
  endWork: '18:00',
  farewellMessage: null,
  super: false,
  lastLoginAt: '2025-01-31T12:00:00.000Z',
  createdAt: '2025-01-02T09:30:00.000Z',
  updatedAt: '2025-01-31T12:00:00.000Z',
};

/** `toUserView`: a user as the API shows it, never with its password hash or token version. */
export const userViewSchema = z.object({
  id: z.number().int().positive(),
  companyId: z.number().int().positive().meta({ description: 'The company the user belongs to' }),
  name: z.string(),
  email: z.string().meta({ description: 'The login, unique across the platform (lower case)' }),
  profile: profileSchema,
  mustChangePassword: z.boolean().meta({ description: 'Seeded with the default password: only a password change is allowed until it is replaced' }),
  online: z.boolean(),
  profileImage: z.string().nullable().meta({ description: 'Public URL of the profile picture' }),
  allTicket: z.enum(['enable', 'disable']).meta({ description: '`enable`: sees the tickets of queues they are not in' }),
  defaultTicketsManagerWidth: z.number().int().meta({ description: 'Width of the ticket list, in pixels' }),
  defaultTheme: z.enum(['light', 'dark']),
  defaultMenu: z.enum(['open', 'closed']),
  startWork: timeOfDay.nullable().meta({ description: 'Start of the working day (HH:MM)' }),
  endWork: timeOfDay.nullable().meta({ description: 'End of the working day (HH:MM)' }),
  farewellMessage: z.string().nullable().meta({ description: 'Sent to the contact when the user closes a ticket' }),
  super: z.boolean().meta({ description: 'Same as `profile === "super"`' }),
  lastLoginAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: 'User', description: 'A platform user, without credentials', example: userViewExample });

/** `ListUsers`: one page of the company's users. */
export const userPageSchema = z.object({
  users: z.array(userViewSchema),
  count: z.number().int().nonnegative().meta({ description: 'Users matching the search, all pages' }),
  hasMore: z.boolean().meta({ description: 'Whether a next page exists' }),
}).meta({ id: 'UserPage', description: 'A page of users', example: { users: [userViewExample], count: 1, hasMore: false } });

/** `ListUsersForPicker`: the few fields a transfer or assignment picker needs. */
export const userSummarySchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  email: z.string(),
  profile: z.string().meta({ description: 'The user\'s profile: `user`, `admin` or `super` (see `Profile`)', example: 'admin' }),
  online: z.boolean(),
}).meta({
  id: 'UserSummary', description: 'A user, trimmed for pickers',
  example: { id: 7, name: 'Maria Souza', email: 'maria@acme.com.br', profile: 'admin', online: true },
});

const accessToken = z.string().meta({
  description: 'The access token (JWT), sent as `Authorization: Bearer <token>`; the refresh token travels in the `jrt` httpOnly cookie (path `/auth`)',
  example: 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOjd9.c2lnbmF0dXJl',
});

/** `POST /auth/login`. */
export const loginResultSchema = z.object({
  token: accessToken,
  user: userViewSchema,
  mustChangePassword: z.boolean().meta({ description: 'Same as `user.mustChangePassword`: the frontend must ask for a new password first' }),
}).meta({
  id: 'LoginResult', description: 'A new session: the access token and the signed-in user',
  example: { token: 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOjd9.c2lnbmF0dXJl', user: userViewExample, mustChangePassword: false },
});

/** `POST /auth/refresh_token`. */
export const refreshResultSchema = z.object({
  token: accessToken,
  user: userViewSchema,
}).meta({
  id: 'RefreshResult', description: 'A new access token after the refresh cookie was rotated',
  example: { token: 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOjd9.c2lnbmF0dXJl', user: userViewExample },
});
